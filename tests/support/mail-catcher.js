// A real SMTP server on loopback that keeps what it receives: the app sends
// through nodemailer (createSmtpMailer) exactly as it would to a provider,
// and the tests read the mails, and the links in them, back from here.
//
// Plain JavaScript (types in mail-catcher.d.ts): the Vitest suites import it,
// and so does tests/support/start-server.js, which runs in plain Node and
// serves what it caught to the Playwright tests over HTTP.
import { SMTPServer } from 'smtp-server'

/** @returns {Promise<import('./mail-catcher').MailCatcher>} */
export async function startMailCatcher() {
	/** @type {import('./mail-catcher').CaughtMail[]} */
	const mails = []
	/** @type {Set<() => void>} */
	const waiters = new Set()
	const server = new SMTPServer({
		// Plain SMTP on loopback: no STARTTLS (its self-signed certificate would
		// be refused by nodemailer, as it should be), no login.
		disabledCommands: ['STARTTLS', 'AUTH'],
		authOptional: true,
		logger: false,
		onData(stream, session, callback) {
			/** @type {Buffer[]} */
			const chunks = []
			stream.on('data', (chunk) => chunks.push(chunk))
			stream.on('end', () => {
				const parsed = parseMessage(Buffer.concat(chunks).toString('utf8'))
				mails.push({ ...parsed, to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()) })
				for (const wake of waiters) wake()
				callback()
			})
		},
	})
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
	const { port } = server.server.address()

	/** @param {string} to */
	const mailsTo = (to) => mails.filter((m) => m.to.includes(to.toLowerCase()))
	return {
		smtpUrl: `smtp://127.0.0.1:${port}`,
		mails,
		mailsTo,
		async waitFor(to, since = mailsTo(to).length) {
			const deadline = Date.now() + 15_000
			for (;;) {
				const found = mailsTo(to)[since]
				if (found) return found
				if (Date.now() > deadline) throw new Error(`no mail #${since + 1} to ${to} within 15 s`)
				await new Promise((resolve) => {
					const wake = () => {
						waiters.delete(wake)
						resolve(undefined)
					}
					waiters.add(wake)
					setTimeout(wake, 100)
				})
			}
		},
		close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
	}
}

// ---------------------------------------------------------------------------
// Just enough MIME for what nodemailer sends: headers, multipart/alternative,
// quoted-printable or base64 bodies, RFC 2047 encoded subjects.
// ---------------------------------------------------------------------------

/** @typedef {{ headers: Map<string, string>, body: string }} Part */

/** @param {string} raw */
function parseMessage(raw) {
	const root = parsePart(raw)
	const leaves = flatten(root)
	const text = leaves.find((p) => contentType(p).startsWith('text/plain'))
	const html = leaves.find((p) => contentType(p).startsWith('text/html'))
	const textBody = text ? decodeBody(text) : ''
	return {
		subject: decodeWords(root.headers.get('subject') ?? ''),
		text: textBody,
		html: html ? decodeBody(html) : '',
		links: [...textBody.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]),
	}
}

/** @param {string} raw @returns {Part} */
function parsePart(raw) {
	const normalised = raw.replace(/\r\n/g, '\n')
	const split = normalised.indexOf('\n\n')
	const head = split === -1 ? normalised : normalised.slice(0, split)
	const body = split === -1 ? '' : normalised.slice(split + 2)
	const headers = new Map()
	for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
		const colon = line.indexOf(':')
		if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
	}
	return { headers, body }
}

/** @param {Part} part */
function contentType(part) {
	return (part.headers.get('content-type') ?? 'text/plain').toLowerCase()
}

/** @param {Part} part @returns {Part[]} */
function flatten(part) {
	const type = part.headers.get('content-type') ?? ''
	const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1]
	if (!type.toLowerCase().startsWith('multipart/') || !boundary) return [part]
	return part.body
		.split(`--${boundary}`)
		.slice(1)
		.filter((chunk) => !chunk.startsWith('--'))
		.flatMap((chunk) => flatten(parsePart(chunk.replace(/^\n/, ''))))
}

/** @param {Part} part */
function decodeBody(part) {
	const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase()
	const body = part.body.replace(/\n$/, '')
	if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
	if (encoding === 'quoted-printable') {
		const bytes = body.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex) => `%${hex}`)
		return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'))
	}
	return body
}

/** @param {string} value */
function decodeWords(value) {
	return value
		.replace(/\?=\s+=\?/g, '?==?')
		.replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_, _charset, kind, data) =>
			kind.toUpperCase() === 'B'
				? Buffer.from(data, 'base64').toString('utf8')
				: decodeURIComponent(data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, '%$1').replace(/%(?![0-9A-F]{2})/gi, '%25')),
		)
}
