import Serializer from '@supabase/realtime-js/dist/main/lib/serializer.js'
import { describe, expect, test } from 'vitest'
import { decodeFrame, encodeFrame, MAX_FRAME_BYTES, parseVsn, reply } from './protocol.server'

describe('realtime frames', () => {
	test('decodes what the installed realtime-js serializer encodes (vsn 2.0.0)', () => {
		const serializer = new Serializer()
		let text = ''
		serializer.encode(
			{ join_ref: '1', ref: '2', topic: 'realtime:wallets_x', event: 'phx_join', payload: { config: { private: true } } },
			(out: string | ArrayBuffer) => (text = String(out)),
		)
		expect(decodeFrame('2.0.0', text)).toEqual({
			joinRef: '1',
			ref: '2',
			topic: 'realtime:wallets_x',
			event: 'phx_join',
			payload: { config: { private: true } },
		})
	})

	test('a server frame round-trips through the library decoder', () => {
		const serializer = new Serializer()
		const frame = { joinRef: '1', ref: null, topic: 'realtime:t', event: 'broadcast', payload: { event: 'e', payload: { a: 1 } } }
		let decoded: unknown
		serializer.decode(encodeFrame('2.0.0', frame), (msg: unknown) => (decoded = msg))
		expect(decoded).toEqual({ join_ref: '1', ref: null, topic: 'realtime:t', event: 'broadcast', payload: frame.payload })
	})

	test('vsn 1.0.0 objects, and a reply keeps the refs', () => {
		const f = decodeFrame('1.0.0', JSON.stringify({ join_ref: null, ref: 3, topic: 'phoenix', event: 'heartbeat', payload: {} }))
		expect(f).toEqual({ joinRef: null, ref: '3', topic: 'phoenix', event: 'heartbeat', payload: {} })
		expect(JSON.parse(encodeFrame('1.0.0', reply(f!, 'ok', {})))).toEqual({
			join_ref: null,
			ref: '3',
			topic: 'phoenix',
			event: 'phx_reply',
			payload: { status: 'ok', response: {} },
		})
	})

	test('refuses malformed, wrongly shaped and oversized frames and unknown versions', () => {
		expect(decodeFrame('2.0.0', 'not json')).toBeNull()
		expect(decodeFrame('2.0.0', '{"topic":"x"}')).toBeNull()
		expect(decodeFrame('1.0.0', '[null,null,"t","e",{}]')).toBeNull()
		expect(decodeFrame('2.0.0', '[null,null,"t","e",[]]')).toBeNull()
		expect(decodeFrame('2.0.0', JSON.stringify([null, null, 't', 'e', { x: 'a'.repeat(MAX_FRAME_BYTES) }]))).toBeNull()
		expect(parseVsn('3.0.0')).toBeNull()
		expect(parseVsn(null)).toBe('1.0.0')
	})
})
