/**
 * The BullMQ queue both services use. The version suffix changes when the payload or result shape
 * changes incompatibly, so old renderers never pick up jobs they cannot read during a rolling deploy.
 */
export const RENDER_QUEUE_NAME = 'card-render-v1';

/** The job name inside the queue (BullMQ requires one; there is only one kind of job). */
export const RENDER_JOB_NAME = 'render-card';
