import { createHmac } from 'node:crypto'

/**
 * RFC 6238 TOTP (SHA-1, 6 digits, 30 s), computed independently of Better
 * Auth, as an authenticator app would from the enrolment's base32 secret.
 */
export function totp(base32Secret: string, at: number = Date.now()): string {
	const key = base32Decode(base32Secret)
	const counter = Buffer.alloc(8)
	counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)))
	const digest = createHmac('sha1', key).update(counter).digest()
	const offset = (digest[digest.length - 1] ?? 0) & 0x0f
	const binary = digest.readUInt32BE(offset) & 0x7fffffff
	return String(binary % 1_000_000).padStart(6, '0')
}

function base32Decode(input: string): Buffer {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
	const clean = input.toUpperCase().replace(/=+$/, '')
	let bits = 0
	let value = 0
	const out: number[] = []
	for (const char of clean) {
		const index = alphabet.indexOf(char)
		if (index === -1) throw new Error(`not base32: ${char}`)
		value = (value << 5) | index
		bits += 5
		if (bits >= 8) {
			out.push((value >>> (bits - 8)) & 0xff)
			bits -= 8
		}
	}
	return Buffer.from(out)
}
