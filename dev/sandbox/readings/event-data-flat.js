'use strict';

/**
 * A service whose events carry flat records: a lead with its `card_id`, a scan with its
 * `qr_code_id`, instead of the objects they belong to.
 */
module.exports = {
	name: 'event-data-flat',
	item: '`data` of `qr_code.created`, `qr_code.updated`, `qr_code.deleted` and `lead.created`: not shown',
	description:
		'lead.created carries the lead itself (with card_id) rather than { card, lead }; scan.created carries qr_code_id and no qr_code object.',
	event(type, data) {
		if (type === 'lead.created' && data.lead) return data.lead;
		if (type === 'scan.created' && data.qr_code) {
			const { qr_code: code, ...scan } = data;
			return { qr_code_id: code.id, ...scan };
		}
		return data;
	},
};
