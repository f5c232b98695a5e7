'use strict';

// The HTML pages the sandbox serves in place of the service's public site.

const escapeHtml = (value) =>
	String(value ?? '').replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
	);

function page(title, body) {
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title></head>
<body><main>${body}</main></body></html>
`;
}

const paragraph = (text) => (text ? `<p>${escapeHtml(text)}</p>` : '');
const link = (url, text) => `<a href="${escapeHtml(url)}">${escapeHtml(text || url)}</a>`;

const notFoundPage = () =>
	page(
		'Not found',
		'<h1>This QR code does not exist</h1><p>It may have been deleted by its owner.</p>',
	);

const pausedPage = (code) =>
	page(
		'Paused',
		`<h1>This QR code is paused</h1><p>The owner of "${escapeHtml(code.name)}" has paused it for now.</p>`,
	);

const CONTENT_BY_TYPE = {
	link_bio: (p) =>
		`<h1>${escapeHtml(p.title)}</h1>${paragraph(p.description)}<ul>${p.links
			.map((item) => `<li>${link(item.url, item.title)}</li>`)
			.join('')}</ul>`,
	event: (p) =>
		`<h1>${escapeHtml(p.title)}</h1><p>Starts: <time datetime="${escapeHtml(p.starts_at)}">${escapeHtml(p.starts_at)}</time></p>` +
		`${p.location ? paragraph(`Where: ${p.location}`) : ''}${paragraph(p.description)}${p.url ? `<p>${link(p.url)}</p>` : ''}`,
	coupon: (p) =>
		`<h1>${escapeHtml(p.title)}</h1><p>Code: <strong>${escapeHtml(p.code)}</strong></p>` +
		`${p.expires_at ? paragraph(`Valid until ${p.expires_at}`) : ''}${paragraph(p.description)}${p.url ? `<p>${link(p.url)}</p>` : ''}`,
	file: (p) =>
		`<h1>${escapeHtml(p.title)}</h1>${paragraph(p.description)}` +
		(p.file_url
			? `<p>${link(p.file_url, 'Download')}</p>`
			: '<p>No file is attached in the sandbox.</p>'),
};

/** The landing page of a code whose type has one (link_bio, event, coupon, file without file_url). */
function codePage(code) {
	const render = CONTENT_BY_TYPE[code.type];
	return render ? page(code.payload.title || code.name, render(code.payload)) : null;
}

const cardPage = (card) =>
	page(card.name, `<h1>${escapeHtml(card.name)}</h1><p>Digital business card (sandbox).</p>`);

/**
 * The dashboard's page of one record (`/qr-codes/<id>`, `/cards/<id>`), where the nodes' "open"
 * links in n8n's record lists point: the record as the API answers it.
 */
const dashboardPage = (kind, record) =>
	page(
		`${record.name} · ${kind}`,
		`<h1>${escapeHtml(record.name)}</h1><p>${escapeHtml(kind)} <code>${escapeHtml(record.id)}</code>` +
			`${record.short_url ? ` · ${link(record.short_url)}` : ''}</p>` +
			`<pre>${escapeHtml(JSON.stringify(record, null, 2))}</pre>`,
	);

module.exports = { notFoundPage, pausedPage, codePage, cardPage, dashboardPage, escapeHtml };
