import { milestonesBetween } from '../shared/milestoneNumbers';
import { packCodes, unpackCodes, type CodeState } from '../shared/packedCodes';

/**
 * Per code, the highest scan milestone that started the workflow or was passed at the baseline,
 * written back across n8n processes as repeats.ts does; a claim not started yet counts here (two
 * scans at once claim a milestone once) but is not written back: a retry claims it anew.
 */

/**
 * Per trigger, its baseline (a new one starts over) and per code the highest milestone started and
 * those claimed here not started yet. Kept for the process, not a run: each delivery is one.
 */
type KnownCode = { started: number; pending: number[] };
const knownHere = new Map<string, { baseline: string; codes: Map<string, KnownCode> }>();

function learnFrom(claims: string, trigger: string, baseline: string) {
	let memory = knownHere.get(trigger);
	if (memory?.baseline !== baseline) {
		memory = { baseline, codes: new Map() };
		knownHere.set(trigger, memory);
	}
	const { codes } = memory;
	const saved = unpackCodes(claims);
	for (const [id, { count }] of saved) {
		const known = codes.get(id);
		if (known) known.started = Math.max(known.started, count);
		else codes.set(id, { started: count, pending: [] });
	}
	/** The stored copy with the started claims it lacks. */
	const withKnown = (): string => {
		const lacking: Array<[string, CodeState]> = [];
		for (const [id, { started }] of codes) {
			if (started > (saved.get(id)?.count ?? 0)) lacking.push([id, { count: started, flag: 0 }]);
		}
		return lacking.length === 0 ? claims : packCodes(new Map([...saved, ...lacking]));
	};
	return { codes, withKnown };
}

/**
 * The milestones `scans` reached that no one claimed, here or in `claims` (the stored copy), lowest
 * first; the highest is claimed. `claims()` is the record to store, with all known by then.
 */
export function claimMilestones(
	claims: string,
	trigger: string,
	baseline: string,
	codeId: string,
	milestones: number[],
	scans: number,
) {
	const { codes, withKnown } = learnFrom(claims, trigger, baseline);
	const code = codes.get(codeId) ?? { started: 0, pending: [] };
	const reached = milestonesBetween(milestones, Math.max(code.started, ...code.pending), scans);
	const milestone = reached.at(-1);
	if (milestone !== undefined) {
		codes.set(codeId, code);
		code.pending.push(milestone);
	}
	const settle = (started: boolean) => {
		if (milestone === undefined || !code.pending.includes(milestone)) return;
		code.pending.splice(code.pending.indexOf(milestone), 1);
		if (started) code.started = Math.max(code.started, milestone);
	};
	return { reached, claims: withKnown, started: () => settle(true), answered: settle };
}

export type MilestoneClaim = ReturnType<typeof claimMilestones>;

/** For a save of this process's own (the resync). */
export const repairClaims = (claims: string, trigger: string, baseline: string) =>
	learnFrom(claims, trigger, baseline).withKnown();
