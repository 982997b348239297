import { resolveDestination } from './destination.ts';
import { type FetchBudget } from './fetch-session.ts';
import { fetchHop } from './fetch-hop.ts';
import { checkFetchTarget, resolveRedirect } from './fetch-target.ts';
import { ImageFetchError } from './image-fetch-error.ts';
import type { ImageFormat } from '@utility-api/render-jobs';
import { PrivateAllowList } from './private-allow-list.ts';
import { requirePositiveInteger, resolveSettings, type SafeFetchSettings } from './settings.ts';

export interface FetchedImage {
  bytes: Buffer;
  /** From the magic bytes, never from Content-Type. */
  format: ImageFormat;
  /** From the header, read by image-size (a GIF grown to hold its first frame, as decoders do). */
  width: number;
  height: number;
  /** The URL the image finally came from, after redirects. */
  url: string;
}

interface FetchImageOptions {
  /** The only hostname allowed, on the first hop and after every redirect (the Discord CDN, say). */
  onlyHost?: string;
  /** A tighter byte cap for this input; it cannot raise the fetcher's `maxBytes`. */
  maxBytes?: number;
  /** Bytes shared with other fetches (one card's images); this fetch's body is charged to it as it arrives. */
  budget?: FetchBudget;
  /** Calls the fetch off: it fails at once as `cancelled`, and its connection is closed. */
  signal?: AbortSignal;
}

export interface ImageFetcher {
  /**
   * Fetches one untrusted image URL. Rejects with `ImageFetchError` for anything about the URL,
   * the network, the transfer or bytes that are not an acceptable image (`unsupported_format`,
   * `corrupt` header, `too_many_pixels`); it carries `field` and `reason`, and a message that is
   * safe to show to the API user.
   */
  fetchImage(url: string, field: string, options?: FetchImageOptions): Promise<FetchedImage>;
}

/**
 * The one way remote images are fetched. Each hop is checked before it connects (fetch-target.ts,
 * destination.ts), connected to exactly the checked address (fetch-hop.ts), and its body judged
 * while it streams (image-stream-inspector.ts); one deadline covers everything. Settings are
 * checked here, so a misconfiguration fails at startup.
 */
export function createImageFetcher(overrides: Partial<SafeFetchSettings> = {}): ImageFetcher {
  const settings = resolveSettings(overrides);
  const allowList = PrivateAllowList.parse(settings.allowPrivateHosts);
  return {
    async fetchImage(url, field, options = {}) {
      if (options.maxBytes !== undefined) requirePositiveInteger('maxBytes', options.maxBytes);
      const maxBytes = Math.min(settings.maxBytes, options.maxBytes ?? settings.maxBytes);
      // One clock for the whole fetch: DNS, every redirect hop and every body byte share it, so a
      // server that drips a byte now and then is still cut off. Each step rejects with the signal's
      // reason when it aborts, turned into the public error below.
      const timeout = AbortSignal.timeout(settings.deadlineMs);
      const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
      const destinationRules = { field, allowList, allowedPorts: settings.allowedPorts };
      const hopOptions = { field, maxBytes, budget: options.budget, userAgent: settings.userAgent, signal, trustedCertificates: settings.trustedCertificates };
      try {
        let target = checkFetchTarget(url, { field, onlyHost: options.onlyHost });
        for (let redirects = 0; ; redirects += 1) {
          const destination = await resolveDestination(target, destinationRules, settings.lookup, signal);
          const outcome = await fetchHop(target, destination, hopOptions);
          if (outcome.kind === 'image') {
            const { bytes, header } = outcome.image;
            return { bytes, format: header.format, width: header.width, height: header.height, url: target.url.href };
          }
          if (redirects >= settings.maxRedirects) {
            throw new ImageFetchError('too_many_redirects', field, `the image server redirected more than ${settings.maxRedirects} times`);
          }
          const next = resolveRedirect(outcome.location, target.url, field);
          target = checkFetchTarget(next, { field, onlyHost: options.onlyHost, redirectedFrom: target.url });
        }
      } catch (error) {
        if (!signal.aborted || error !== signal.reason) throw error;
        if (timeout.aborted) throw new ImageFetchError('timeout', field, `the image did not arrive within ${settings.deadlineMs} ms`);
        throw new ImageFetchError('cancelled', field, 'the fetch was called off');
      }
    },
  };
}
