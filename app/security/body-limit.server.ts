import type { IncomingMessage, ServerResponse } from 'node:http'
import { ANALYTICS_RELAY_PATH, RELAY_BODY_LIMIT } from '#app/modules/analytics/config'

/**
 * Request bodies are limited before anything reads them: React Router's
 * actions read the body through the Fetch Request, so the limit sits on the
 * Node stream that feeds it (limitedBody) and, when the client announces a
 * length, before the app is called at all (exceedsDeclaredLength).
 */

/**
 * Paths with their own body limit, first match wins; everything else gets
 * MAX_BODY_BYTES. The Stripe webhook (/api/stripe/webhook) needs no entry:
 * it reads its raw body itself with a smaller limit (WEBHOOK_BODY_LIMIT).
 */
export const ROUTE_BODY_LIMITS: ReadonlyArray<{ prefix: string; bytes: number }> = [
	// The analytics relay (app/modules/analytics/relay.server.ts).
	{ prefix: `${ANALYTICS_RELAY_PATH}/`, bytes: RELAY_BODY_LIMIT },
]

export function bodyLimitFor(pathname: string, defaultBytes: number): number {
	return ROUTE_BODY_LIMITS.find((r) => pathname.startsWith(r.prefix))?.bytes ?? defaultBytes
}

/** A Content-Length beyond the limit: refused before a byte is read. */
export function exceedsDeclaredLength(req: IncomingMessage, limit: number): boolean {
	const declared = req.headers['content-length']
	if (declared === undefined) return false
	const length = Number(declared)
	return !Number.isFinite(length) || length > limit
}

export class PayloadTooLargeError extends Error {
	override name = 'PayloadTooLargeError'
}

const refused = new WeakSet<IncomingMessage>()

/** How long the rest of a refused body is read and dropped before the connection is cut. */
export const REFUSED_BODY_GRACE_MS = 1_000

/**
 * 413, then the connection is cut. Not at once: closing a socket that still
 * has unread data makes the kernel send a reset, and a client still
 * uploading would lose the 413 it has not read yet. So for a moment the rest
 * of the body is read and dropped (never kept), then the socket is destroyed.
 * Safe to call more than once.
 */
export function refuseTooLarge(req: IncomingMessage, res: ServerResponse): void {
	if (refused.has(req)) return
	refused.add(req)
	if (!res.headersSent) {
		res.statusCode = 413
		res.setHeader('Content-Type', 'text/plain; charset=utf-8')
		res.setHeader('Cache-Control', 'no-store')
		res.end('413 Payload Too Large')
	}
	req.on('data', () => {})
	req.resume()
	setTimeout(() => req.socket.destroy(), REFUSED_BODY_GRACE_MS).unref()
}

/**
 * The request body as a web stream that errors (and calls onTooLarge once)
 * as soon as more than `limit` bytes arrive, chunked or not. Backpressure is
 * kept: the Node stream pauses while the reader is not asking for more.
 */
export function limitedBody(
	source: IncomingMessage,
	limit: number,
	onTooLarge: () => void,
): { body: ReadableStream<Uint8Array>; discardRest: () => void } {
	let received = 0
	let settled = false
	let discarding = false
	const body = new ReadableStream<Uint8Array>({
		start(controller) {
			source.on('data', (chunk: Buffer) => {
				received += chunk.length
				if (discarding) {
					if (received > limit) onTooLarge()
					return
				}
				if (settled) return
				if (received > limit) {
					settled = true
					source.pause()
					controller.error(new PayloadTooLargeError(`request body over ${limit} bytes`))
					onTooLarge()
					return
				}
				controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
				if ((controller.desiredSize ?? 1) <= 0) source.pause()
			})
			source.once('end', () => {
				if (settled) return
				settled = true
				controller.close()
			})
			source.once('error', (error) => {
				if (settled) return
				settled = true
				controller.error(error)
			})
			source.once('close', () => {
				if (settled) return
				settled = true
				controller.error(new Error('the client closed the request before its body ended'))
			})
		},
		pull() {
			source.resume()
		},
		cancel() {
			settled = true
			source.destroy()
		},
	})
	/**
	 * The app answered without reading the whole body (no action, a 405, a
	 * redirect): read and drop the rest so the connection can be reused, but
	 * only up to the limit; past it onTooLarge closes the connection.
	 */
	const discardRest = () => {
		if (source.complete || source.destroyed) return
		discarding = true
		if (received > limit) onTooLarge()
		else source.resume()
	}
	return { body, discardRest }
}
