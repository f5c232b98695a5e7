import { createHash } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * The id of the run this execution belongs to: the first execution's id, which the node keeps in
 * its execution context (`getContext('node')`). n8n saves that context with the execution and a
 * Retry of a failed execution (with the original or the current workflow) continues from the saved
 * execution data, context included, in n8n 1.x and 2.x; a new run starts with an empty context.
 * (The execution's custom data is carried over too, but n8n 1.x offers it to nodes only through
 * expressions, whose sandbox hides its functions, and it holds at most 10 keys.)
 */
function runIdOf(ctx: IExecuteFunctions): string {
	const context = ctx.getContext('node');
	const kept: unknown = context.runId;
	if (typeof kept === 'string' && kept !== '') return kept;
	const executionId = ctx.getExecutionId();
	context.runId = executionId;
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
