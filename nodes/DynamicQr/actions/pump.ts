import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/** A job: the record it acts on (jobs of one record run in turn), and the work. */
export type Job<T> = { key?: string; work: () => Promise<T> };

type Failure = { index: number; error: Error };

/**
 * Runs jobs 0 … count - 1, started in order, as many at once as `room()` says (the rate model); a
 * finished job starts the next of its record. After a failure no job starts, and the failure kept
 * is the earliest job's, as a one-at-a-time run would have met it.
 */
export async function pump<T>(count: number, room: () => number, job: (index: number) => Job<T>) {
	const results: T[] = new Array(count);
	let failure: Failure | undefined;
	await new Promise<void>((resolve) => {
		let next = 0;
		let active = 0;
		/** Per record with a job running: the jobs waiting for it. */
		const waiting = new Map<string | undefined, Array<[number, Job<T>]>>();
		const start = (index: number, started: Job<T>) => {
			active++;
			void started
				.work()
				.then((result) => (results[index] = result))
				.catch((error: Error) => {
					if (!failure || index < failure.index) failure = { index, error };
				})
				.finally(() => {
					active--;
					const following = waiting.get(started.key)?.shift();
					if (following === undefined) waiting.delete(started.key);
					else if (!failure) start(...following);
					fill();
				});
		};
		const fill = () => {
			while (!failure && next < count && active < room()) {
				const index = next++;
				const queued = job(index);
				const queue = waiting.get(queued.key);
				if (queue) queue.push([index, queued]);
				else {
					if (queued.key !== undefined) waiting.set(queued.key, []);
					start(index, queued);
				}
			}
			if (active === 0) resolve();
		};
		fill();
	});
	return { results, failure };
}

/**
 * A failure as an item where the node goes on past failures; thrown otherwise. On "Continue (using
 * error output)" n8n 1.x and 2.x move an item whose only key is `error` to the error output, merged
 * with its input item (an item carrying the error object would lose its JSON): the fix goes in the
 * text. On "Continue", the item keeps `json` beside the error.
 */
export function failureItem(
	ctx: IExecuteFunctions,
	error: Error,
	json: IDataObject = {},
): INodeExecutionData {
	if (!ctx.continueOnFail()) throw error;
	const { message, description } = error as { message: string; description?: string };
	if (ctx.getNode().onError === 'continueErrorOutput') {
		return { json: { error: description ? `${message}. ${description}` : message } };
	}
	return { json: { ...json, error: message, ...(description ? { description } : {}) } };
}
