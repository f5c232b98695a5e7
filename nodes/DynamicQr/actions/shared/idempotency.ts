import { createHash } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * The execution's custom data key under which the first execution of a run leaves its id. n8n
 * keeps an execution's custom data (`resultData.metadata`) when it retries the execution, in
 * 1.x and 2.x, with the original or the current workflow; a new run starts without it.
 */
export const RUN_ID_KEY = 'dynamicQrRunId';

/**
 * The id of the run this execution belongs to: the first execution's id, carried by its retries.
 * Tool calls and engines without run data have no custom data; their execution id is the run.
 * n8n keeps at most 10 custom data keys per execution: when the workflow's own Code nodes have
 * used all ten, the id is not kept, and a Retry of the execution counts as a new run.
 */
function runIdOf(ctx: IExecuteFunctions): string {
	const executionId = ctx.getExecutionId();
	let customData: IExecuteFunctions['customData'] | undefined;
	try {
		customData = ctx.customData;
	} catch {
		return executionId;
	}
	const kept = customData?.get(RUN_ID_KEY);
	if (typeof kept === 'string' && kept !== '') return kept;
	if (typeof executionId === 'string' && executionId !== '')
		customData?.set(RUN_ID_KEY, executionId);
	return executionId;
}

/**
 * The default Idempotency-Key: the same for every attempt at one item of one node run of one
 * workflow run (so n8n's Retry On Fail, the API client's retries and n8n's Retry of a failed
 * execution replay instead of duplicating), and different for every other item, node run and
 * workflow run. For a first execution the key is what it was before retries were covered.
 */
export function defaultIdempotencyKey(ctx: IExecuteFunctions, itemIndex: number): string {
	const runIndex = ctx.evaluateExpression('{{ $runIndex }}', itemIndex);
	const source = [ctx.getWorkflow().id, runIdOf(ctx), ctx.getNode().id, runIndex, itemIndex].join(
		':',
	);
	return `n8n-${createHash('sha256').update(source).digest('hex').slice(0, 40)}`;
}

/** Keys sent as given: printable ASCII, no space at either end, at most this long. */
const PLAIN_KEY = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const MAX_PLAIN_KEY = 255;
/** Marks a key sent as the hash of what the user gave; plain keys with it are hashed too. */
const HASHED_PREFIX = 'key-sha256-';

/**
 * The Idempotency-Key as it can travel in a header. HTTP clients drop what a header cannot hold
 * (characters outside Latin-1, control characters), so "注文-東京" and "注文-大阪" would both
 * arrive as "-" and make one code. A key that is not plain printable ASCII (or is over-long) is
 * sent as `key-sha256-` and the SHA-256 of its UTF-8 bytes: the same key always gives the same
 * header, and different keys different ones. Plain keys go unchanged, so retries of runs made
 * before this rule still match.
 */
export function headerSafeKey(key: string): string {
	if (PLAIN_KEY.test(key) && key.length <= MAX_PLAIN_KEY && !key.startsWith(HASHED_PREFIX)) {
		return key;
	}
	return `${HASHED_PREFIX}${createHash('sha256').update(key, 'utf8').digest('hex')}`;
}
