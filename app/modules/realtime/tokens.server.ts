import { hkdfSync } from 'node:crypto'
import { jwtVerify, SignJWT } from 'jose'
import type { JwtClaims } from '#app/db/as-user.server'

/**
 * The local platform's realtime tokens: short-lived HS256 JWTs with the
 * claims Supabase Auth puts in its access tokens (`sub`, `role`, `aal`,
 * `exp`), minted by the server for the page (GET /api/realtime/token) and
 * checked by the relay on join and on every `access_token` push. Visitors
 * get a token with role `anon` and no `sub`. The key is derived from
 * BETTER_AUTH_SECRET, so every instance of one deployment shares it.
 */
export const REALTIME_TOKEN_SECONDS = 10 * 60

export type RealtimeClaims = { role: 'anon' } | JwtClaims

export function realtimeKey(authSecret: string): Uint8Array {
	return new Uint8Array(hkdfSync('sha256', authSecret, 'dareboost', 'realtime token v1', 32))
}

export async function mintRealtimeToken(key: Uint8Array, claims: JwtClaims | null, now = Date.now()) {
	const exp = Math.floor(now / 1000) + REALTIME_TOKEN_SECONDS
	const body = claims ? { role: 'authenticated', aal: claims.aal ?? 'aal1' } : { role: 'anon' }
	const jwt = new SignJWT(body).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(Math.floor(now / 1000)).setExpirationTime(exp).setAudience('realtime')
	if (claims) jwt.setSubject(claims.sub)
	return { token: await jwt.sign(key), expiresAt: exp * 1000 }
}

/** The token's claims with its expiry (seconds), or null when it is not ours, altered or expired. */
export async function verifyRealtimeToken(key: Uint8Array, token: unknown): Promise<{ claims: RealtimeClaims; exp: number } | null> {
	if (typeof token !== 'string' || token.length > 4096) return null
	try {
		const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], audience: 'realtime' })
		const exp = Number(payload.exp)
		if (payload.role === 'anon') return { claims: { role: 'anon' }, exp }
		if (payload.role === 'authenticated' && typeof payload.sub === 'string') {
			const aal = payload.aal === 'aal2' ? 'aal2' : 'aal1'
			return { claims: { role: 'authenticated', sub: payload.sub, aal }, exp }
		}
		return null
	} catch {
		return null
	}
}
