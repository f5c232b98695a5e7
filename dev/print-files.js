'use strict';
/**
 * Checks print files with a print shop's tools: unzip opens a ZIP, Ghostscript renders PDFs to
 * pixels and ZBar reads the QR code in them. Debian packages, installed when missing
 * (debian-package.js; `node dev/cli/provision-debian.js` does it before the tests).
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ensureDebianPackage } = require('./debian-package');

const TOOLS = [
	{ pkg: 'unzip', file: '/usr/bin/unzip' },
	{ pkg: 'ghostscript', file: '/usr/bin/gs' },
	{ pkg: 'zbar-tools', file: '/usr/bin/zbarimg' },
];

async function ensurePrintTools({ log }) {
	for (const tool of TOOLS) await ensureDebianPackage({ ...tool, mode: fs.constants.X_OK, log });
}

function run(command, args, options = {}) {
	const result = spawnSync(command, args, {
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
		...options,
	});
	if (result.error) throw result.error;
	if (result.status !== 0)
		throw new Error(
			`${command} ${args.join(' ')} failed (exit ${result.status}): ${result.stderr}`,
		);
	return result.stdout;
}

/**
 * A ZIP's files as unzip extracts them: `{ folder, names }`, names as stored (unzip refuses to write
 * a name that leaves the folder). `remove()` deletes the folder.
 */
function unzipped(zip) {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'print-pack-'));
	const archive = path.join(folder, 'archive.zip');
	fs.writeFileSync(archive, zip);
	const names = run('unzip', ['-Z1', archive]).split('\n').filter(Boolean);
	const files = path.join(folder, 'files');
	run('unzip', ['-q', archive, '-d', files]);
	return {
		names,
		read: (name) => fs.readFileSync(path.join(files, name)),
		path: (name) => path.join(files, name),
		remove: () => fs.rmSync(folder, { recursive: true, force: true }),
	};
}

/**
 * What a scanner reads in each PDF (one page each), in the order given: Ghostscript renders the
 * pages at 300 dpi in one run, zbarimg reads each page (null when it finds no code), and
 * `pages` counts the pages each PDF had.
 */
function readPdfCodes(pdfs) {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'print-render-'));
	try {
		return pdfs.map((pdf, index) => {
			const png = path.join(folder, `${index}-%d.png`);
			run('gs', [
				'-q',
				'-dSAFER',
				'-dBATCH',
				'-dNOPAUSE',
				'-sDEVICE=pnggray',
				'-r300',
				`-sOutputFile=${png}`,
				pdf,
			]);
			const pages = fs.readdirSync(folder).filter((file) => file.startsWith(`${index}-`));
			const read = spawnSync(
				'zbarimg',
				['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', path.join(folder, `${index}-1.png`)],
				{
					encoding: 'utf8',
				},
			);
			return { pages: pages.length, text: read.status === 0 ? read.stdout.trim() : null };
		});
	} finally {
		fs.rmSync(folder, { recursive: true, force: true });
	}
}

module.exports = { ensurePrintTools, unzipped, readPdfCodes };
