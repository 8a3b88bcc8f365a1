// A loopback stand-in for PostHog's ingestion host: it records every request
// the app's analytics relay forwards (method, path, query, headers, body
// size, decoded events) and answers like PostHog does. The tests read the
// record at GET /__received and clear it with DELETE /__received.
import { createServer } from 'node:http'
import { gunzipSync } from 'node:zlib'

/** @returns {Promise<{ url: string, close: () => Promise<void> }>} */
export async function startAnalyticsUpstream(port) {
	/** @type {Array<Record<string, unknown>>} */
	let received = []
	const server = createServer((req, res) => {
		const chunks = []
		req.on('data', (c) => chunks.push(c))
		req.on('end', () => {
			const url = new URL(req.url ?? '/', 'http://upstream')
			if (url.pathname === '/__received') {
				if (req.method === 'DELETE') received = []
				res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received))
				return
			}
			const body = Buffer.concat(chunks)
			received.push({
				method: req.method,
				path: url.pathname,
				query: url.search,
				headers: req.headers,
				bytes: body.length,
				events: decodeEvents(body, url, req.headers['content-type']),
			})
			res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'upstream_cookie=1; Path=/' }).end('{"status":1}')
		})
	})
	await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)))
	return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve(undefined))) }
}

/** PostHog sends JSON, gzip'd JSON (as text/plain, or with ?compression=gzip-js) or base64 in a form field; the events are what the tests check. */
function decodeEvents(body, url, contentType) {
	try {
		let text
		const gzip = url.searchParams.get('compression') === 'gzip-js' || (body[0] === 0x1f && body[1] === 0x8b)
		if (gzip) text = gunzipSync(body).toString('utf8')
		else text = body.toString('utf8')
		if (String(contentType).includes('x-www-form-urlencoded')) {
			const data = new URLSearchParams(text).get('data') ?? ''
			text = Buffer.from(data, 'base64').toString('utf8')
		}
		const parsed = JSON.parse(text)
		const list = Array.isArray(parsed) ? parsed : Array.isArray(parsed.batch) ? parsed.batch : [parsed]
		return list.map((e) => ({ event: e.event, properties: e.properties ?? {} }))
	} catch {
		return []
	}
}
