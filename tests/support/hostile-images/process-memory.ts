/**
 * Resident memory of process trees, read from /proc (Linux): a process and every descendant (the
 * children of each of its threads, recursively), sampled on a timer so a test can assert the peak.
 */
import { highWaterBytes, processTree, residentBytes, resetHighWater } from '../../../scripts/bench/proc-stats.ts';

export { highWaterBytes, processTree, residentBytes, resetHighWater } from '../../../scripts/bench/proc-stats.ts';

export const MIB = 1024 * 1024;
export const GIB = 1024 * MIB;

const residentSum = (pids: readonly number[]): number => pids.reduce((sum, pid) => sum + (residentBytes(pid) ?? 0), 0);

/** The resident bytes of a process tree right now (pages shared between processes count in each). */
export const treeResidentBytes = (root: number): number => residentSum(processTree(root));

export interface WatchedProcess {
  name: string;
  pid: number;
}

export interface TreePeak {
  name: string;
  /** The largest RSS sum of the process and its descendants seen by any sample. */
  peakTreeBytes: number;
  /** The most descendants seen at once. */
  peakDescendants: number;
  /** VmHWM of the process itself when sampling stopped: its peak since sampling started (reset then). */
  highWaterBytes: number;
  samples: number;
}

/**
 * Samples the trees of `processes` every `intervalMs` until `stop()`, which returns each one's
 * peaks. The high-water mark of each watched process is reset first, so it catches what the
 * samples miss between two ticks (for that process; descendants are seen only by the samples).
 */
export function sampleProcessTrees(processes: readonly WatchedProcess[], intervalMs = 50): { stop(): TreePeak[] } {
  for (const { pid } of processes) resetHighWater(pid);
  const peaks = processes.map((process) => ({ ...process, peakTreeBytes: 0, peakDescendants: 0, samples: 0 }));
  const sample = () => {
    for (const peak of peaks) {
      const tree = processTree(peak.pid);
      peak.peakTreeBytes = Math.max(peak.peakTreeBytes, residentSum(tree));
      peak.peakDescendants = Math.max(peak.peakDescendants, tree.length - 1);
      peak.samples += 1;
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peaks.map(({ pid, ...peak }) => ({ ...peak, highWaterBytes: highWaterBytes(pid) ?? 0 }));
    },
  };
}

export const mebibytes = (bytes: number): string => `${Math.round(bytes / MIB)} MiB`;
