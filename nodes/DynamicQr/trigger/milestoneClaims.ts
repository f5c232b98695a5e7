import { milestonesBetween } from '../shared/milestoneNumbers';
import { packCodes, unpackCodes, type CodeState } from '../shared/packedCodes';

/**
 * Per code, the highest scan milestone that started the workflow or was passed at the baseline,
 * written back across n8n processes as repeats.ts does; a claim not started yet counts here (two
 * scans at once claim a milestone once) but is not written back: a retry claims it anew.
 */

/**
 * Per trigger, its baseline (a new one starts over), per code the highest milestone started and
 * those claimed here not started yet, and the stored copy last learnt, unpacked once for a
 * catch-up's every code, with the codes started beyond it. Kept for the process, not a run.
 */
type KnownCode = { started: number; pending: number[] };
type Memory = {
	baseline: string;
	codes: Map<string, KnownCode>;
	learnt?: string;
	saved: Map<string, CodeState>;
	ahead: Set<string>;
};
const knownHere = new Map<string, Memory>();

const isAhead = (memory: Memory, id: string) =>
	(memory.codes.get(id)?.started ?? 0) > (memory.saved.get(id)?.count ?? 0);

function learnFrom(claims: string, trigger: string, baseline: string) {
	let memory = knownHere.get(trigger);
	if (memory?.baseline !== baseline) {
		memory = { baseline, codes: new Map(), saved: new Map(), ahead: new Set() };
		knownHere.set(trigger, memory);
	}
	const { codes, ahead } = memory;
	if (memory.learnt !== claims) {
		Object.assign(memory, { learnt: claims, saved: unpackCodes(claims) });
		for (const [id, { count }] of memory.saved) {
			const known = codes.get(id);
			if (known) known.started = Math.max(known.started, count);
			else codes.set(id, { started: count, pending: [] });
		}
		ahead.clear();
		for (const id of codes.keys()) if (isAhead(memory, id)) ahead.add(id);
	}
	const saved = memory.saved;
	/** The stored copy with the started claims it lacks. */
	const withKnown = (): string => {
		// Against the copy learnt last, `ahead` names them; against an older one, every code may.
		const candidates = memory.saved === saved ? ahead : codes.keys();
		const lacking: Array<[string, CodeState]> = [];
		for (const id of candidates) {
			const started = codes.get(id)?.started ?? 0;
			if (started > (saved.get(id)?.count ?? 0)) lacking.push([id, { count: started, flag: 0 }]);
		}
		return lacking.length === 0 ? claims : packCodes(new Map([...saved, ...lacking]));
	};
	return { memory, codes, withKnown };
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
	const { memory, codes, withKnown } = learnFrom(claims, trigger, baseline);
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
		if (isAhead(memory, codeId)) memory.ahead.add(codeId);
	};
	return { reached, claims: withKnown, started: () => settle(true), answered: settle };
}

export type MilestoneClaim = ReturnType<typeof claimMilestones>;

/** For a save of this process's own (the resync). */
export const repairClaims = (claims: string, trigger: string, baseline: string) =>
	learnFrom(claims, trigger, baseline).withKnown();
