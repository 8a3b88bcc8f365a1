/**
 * Phoenix channel frames as realtime-js sends and expects them (text frames).
 * vsn 2.0.0: a JSON array [join_ref, ref, topic, event, payload];
 * vsn 1.0.0: a JSON object {join_ref, ref, topic, event, payload}.
 * Anything else (not JSON, wrong shape, over the size limit) is refused.
 */
export type Vsn = '1.0.0' | '2.0.0'

export interface Frame {
	joinRef: string | null
	ref: string | null
	topic: string
	event: string
	payload: Record<string, unknown>
}

export const MAX_FRAME_BYTES = 64 * 1024

export function parseVsn(value: string | null): Vsn | null {
	if (value === null || value === '1.0.0') return '1.0.0'
	if (value === '2.0.0') return '2.0.0'
	return null
}

function refOrNull(value: unknown): string | null | undefined {
	if (value === null || value === undefined) return null
	if (typeof value === 'string') return value
	if (typeof value === 'number' && Number.isFinite(value)) return String(value)
	return undefined
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function decodeFrame(vsn: Vsn, text: string): Frame | null {
	if (Buffer.byteLength(text) > MAX_FRAME_BYTES) return null
	let raw: unknown
	try {
		raw = JSON.parse(text)
	} catch {
		return null
	}
	let fields: unknown[]
	if (vsn === '2.0.0') {
		if (!Array.isArray(raw) || raw.length !== 5) return null
		fields = raw
	} else {
		if (!isRecord(raw)) return null
		fields = [raw.join_ref, raw.ref, raw.topic, raw.event, raw.payload]
	}
	const [joinRef, ref, topic, event, payload] = fields
	const j = refOrNull(joinRef)
	const r = refOrNull(ref)
	if (j === undefined || r === undefined) return null
	if (typeof topic !== 'string' || topic.length === 0 || topic.length > 255) return null
	if (typeof event !== 'string' || event.length === 0 || event.length > 64) return null
	if (!isRecord(payload)) return null
	return { joinRef: j, ref: r, topic, event, payload }
}

export function encodeFrame(vsn: Vsn, frame: Frame): string {
	if (vsn === '2.0.0') return JSON.stringify([frame.joinRef, frame.ref, frame.topic, frame.event, frame.payload])
	return JSON.stringify({
		join_ref: frame.joinRef,
		ref: frame.ref,
		topic: frame.topic,
		event: frame.event,
		payload: frame.payload,
	})
}

/** The reply realtime-js resolves a push with: status 'ok' or 'error'. */
export function reply(request: Frame, status: 'ok' | 'error', response: Record<string, unknown>): Frame {
	return {
		joinRef: request.joinRef,
		ref: request.ref,
		topic: request.topic,
		event: 'phx_reply',
		payload: { status, response },
	}
}
