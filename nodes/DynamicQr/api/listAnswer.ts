import type { IDataObject } from 'n8n-workflow';

import { isObject } from './records';

/**
 * What a list answer says: its records, and what it tells (or leaves unsaid) about the pages
 * after it. The shapes a service may give are the readings of `links` and `meta`.
 */

/** A count the service reports, as a number or a numeric string; undefined when absent or odd. */
export function countOf(value: unknown): number | undefined {
	if (typeof value !== 'number' && typeof value !== 'string') return undefined;
	const count = Number(value);
	return value !== '' && Number.isFinite(count) ? count : undefined;
}

/** The records of a list answer: `data`, or the answer itself when it is a bare array. */
export function recordsOf(answer: unknown): IDataObject[] {
	const data = isObject(answer) ? answer.data : answer;
	return Array.isArray(data) ? data.filter(isObject) : [];
}

// Readings "per-page-cap-50" and "per-page-ignored": a service may serve fewer records a page
// than asked for; its own page size (reported, or what a first page held) counts the pages.
/** The page size the service reports (`meta.per_page`), when it reports a usable one. */
export function reportedPageSize(answer: unknown): number | undefined {
	const size =
		isObject(answer) && isObject(answer.meta) ? countOf(answer.meta.per_page) : undefined;
	return size !== undefined && size >= 1 ? size : undefined;
}

/** A record's id as text, when it has one. */
export const idOf = (record: IDataObject | undefined): string | undefined =>
	typeof record?.id === 'string' || typeof record?.id === 'number' ? String(record.id) : undefined;

/**
 * What the answer itself says about another page: each signal it carries votes (`links.next`
 * when the links have that key, the last page by `last_page` or `total_pages`, the `total`), and
 * any one of them can end the list. Undefined when it carries none.
 */
export function signalledMore(
	answer: unknown,
	page: number,
	recordsSoFar: number,
): boolean | undefined {
	if (!isObject(answer)) return undefined;
	const votes: boolean[] = [];
	// Reading "links-without-next": links without a `next` key say nothing about the next page
	// (only a `next` of null or "" says there is none), so `meta` decides.
	// Reading "links-next-only": `links.next` alone decides when there is no `meta`.
	const next = isObject(answer.links) ? answer.links.next : undefined;
	if (next !== undefined) votes.push(typeof next === 'string' && next !== '');
	const meta = isObject(answer.meta) ? answer.meta : {};
	// Reading "meta-total-pages": the last page as `total_pages`, not `last_page`.
	const lastPage = countOf(meta.last_page) ?? countOf(meta.total_pages);
	if (lastPage !== undefined) votes.push(page < lastPage);
	const total = countOf(meta.total);
	if (total !== undefined) votes.push(recordsSoFar < total);
	return votes.length ? votes.every(Boolean) : undefined;
}

/** Whether a list goes on after a page that said nothing about it. */
export function unsignalledMore(held: number, pageSize: number | undefined): boolean {
	// Reading "data-only": a list answered with `data` alone ends on a short or empty page.
	// Without a known page size this is the first page: a full one may well have a successor,
	// and a short one may only be a page size capped without a word, so the next is asked once.
	if (pageSize === undefined) return true;
	return held >= pageSize;
}
