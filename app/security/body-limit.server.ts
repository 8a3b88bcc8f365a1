import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * Request bodies are limited before anything reads them: React Router's
 * actions read the body through the Fetch Request, so the limit sits on the
 * Node stream that feeds it (limitedBody) and, when the client announces a
 * length, before the app is called at all (exceedsDeclaredLength).
 */

/**
 * Paths with their own body limit, first match wins; everything else gets
 * MAX_BODY_BYTES. The payment provider's webhook (a later issue) reads its
 * raw body for the signature check and needs far less than a form:
 * `{ prefix: '/api/webhooks/stripe', bytes: 64 * 1024 }` goes here.
 */
export const ROUTE_BODY_LIMITS: ReadonlyArray<{ prefix: string; bytes: number }> = []

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

/**
 * 413, and the connection closes: the rest of the body is not read into
 * anything. The socket is destroyed shortly after the answer is flushed
 * (not at once, which could reset the connection before the client reads
 * the 413).
 */
export function refuseTooLarge(req: IncomingMessage, res: ServerResponse): void {
	if (res.headersSent) {
		req.socket.destroy()
		return
	}
	res.statusCode = 413
	res.setHeader('Connection', 'close')
	res.setHeader('Content-Type', 'text/plain; charset=utf-8')
	res.setHeader('Cache-Control', 'no-store')
	res.end('413 Payload Too Large')
	res.once('finish', () => setTimeout(() => req.socket.destroy(), 1000).unref())
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
