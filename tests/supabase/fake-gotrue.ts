import { createHash, generateKeyPairSync, randomBytes, randomUUID, sign, verify, type KeyObject } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A stand-in for Supabase Auth (GoTrue) on loopback, for the adapter's
 * boundary tests (tests/supabase/adapter.test.ts).
 *
 * Why faked: the real Supabase Auth runs on Supabase's servers (or in their
 * Docker stack), outside this machine, and the tests must run offline. The
 * adapter still talks real HTTP through the real @supabase/ssr and
 * @supabase/supabase-js; only the server end is this small program. It
 * answers the endpoints the adapter calls with the response shapes of
 * supabase/auth (API version 2024-01-01: errors are {code, message} with the
 * X-Supabase-Api-Version header; sessions are {access_token, token_type,
 * expires_in, expires_at, refresh_token, user}; users carry identities and
 * factors), signs access tokens with ES256 and publishes the key at
 * /.well-known/jwks.json as Supabase's asymmetric keys do, and keeps the
 * state a flow needs (users, sessions, mail tokens, PKCE codes, factors).
 * tests/supabase/contract.supabase.ts (npm run test:contract) runs the same adapter against a real
 * project when one is configured.
 */

export interface RecordedRequest {
	method: string
	path: string
	query: URLSearchParams
	headers: Record<string, string | string[] | undefined>
	body: Record<string, unknown> | null
}

export interface FakeFactor {
	id: string
	friendly_name: string
	factor_type: 'totp'
	status: 'verified' | 'unverified'
	created_at: string
	updated_at: string
	secret: string
}

export interface FakeUser {
	id: string
	email: string
	password: string | null
	confirmedAt: string | null
	userMetadata: Record<string, unknown>
	appMetadata: Record<string, unknown>
	factors: FakeFactor[]
	createdAt: string
}

export interface SentMail {
	type: 'signup' | 'recovery'
	email: string
	redirectTo: string | null
	tokenHash: string
}

export interface FakeIdentity {
	identity_id: string
	/** The provider's subject (the user id for the email identity). */
	id: string
	provider: string
	identity_data: Record<string, unknown>
	created_at: string
}

interface FakeSession {
	id: string
	userId: string
	aal: 'aal1' | 'aal2'
	amr: { method: string; timestamp: number }[]
	revoked: boolean
	refreshToken: string
}

type Handler = (req: RecordedRequest, res: ServerResponse) => void
type Override = { method: string; path: string; respond: Handler }

const API_VERSION = '2024-01-01'

export class FakeGoTrue {
	readonly requests: RecordedRequest[] = []
	readonly users = new Map<string, FakeUser>()
	readonly mails: SentMail[] = []
	/** The code the fake authenticator shows: verify accepts this one only. */
	readonly totpCode = '246810'
	readonly serviceRoleKey = `service-${randomBytes(8).toString('hex')}`
	/** Providers GET /settings reports as switched on. */
	providers: Record<string, boolean> = { email: true, google: true, twitch: false }
	/** Lifetime of new access tokens, in seconds. */
	expiresIn = 3600
	/** The project's "manual linking" setting (linkIdentity). */
	manualLinking = true
	/** Whether the server answers at all: false makes every request 503 (a gateway without its upstream). */
	up = true

	readonly #server: Server
	readonly #privateKey: KeyObject
	readonly #publicKey: KeyObject
	readonly #jwk: Record<string, unknown>
	readonly #sessions = new Map<string, FakeSession>()
	readonly #refresh = new Map<string, string>()
	readonly #mailTokens = new Map<string, { userId: string; type: 'signup' | 'recovery' }>()
	readonly #codes = new Map<string, { userId: string; challenge: string; method: string }>()
	readonly #challenges = new Map<string, string>()
	readonly #identities = new Map<string, FakeIdentity[]>()
	/** Link flows started by GET /user/identities/authorize, by flow state id. */
	readonly #links = new Map<string, { userId: string; provider: string; challenge: string; method: string }>()
	#overrides: Override[] = []
	#url = ''

	private constructor() {
		const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
		this.#privateKey = privateKey
		this.#publicKey = publicKey
		// A new key id per server: auth-js caches JWKS per storage key across clients.
		this.#jwk = { ...publicKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'ES256', use: 'sig', key_ops: ['verify'] }
		this.#server = createServer((req, res) => void this.#handle(req, res))
	}

	static async start(): Promise<FakeGoTrue> {
		const fake = new FakeGoTrue()
		await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve))
		const { port } = fake.#server.address() as AddressInfo
		fake.#url = `http://127.0.0.1:${port}`
		return fake
	}

	/** SUPABASE_URL. */
	get url(): string {
		return this.#url
	}

	async close(): Promise<void> {
		this.#server.closeAllConnections()
		await new Promise<void>((resolve) => this.#server.close(() => resolve()))
	}

	/** Answer the next matching request with `respond` instead of the normal behaviour. */
	once(method: string, path: string, respond: Handler): void {
		this.#overrides.push({ method, path, respond })
	}

	/** The next matching request gets this GoTrue error. */
	failOnce(method: string, path: string, status: number, code: string, message: string, extra: Record<string, unknown> = {}): void {
		this.once(method, path, (_req, res) => this.#error(res, status, code, message, extra))
	}

	requestsTo(method: string, path: string): RecordedRequest[] {
		return this.requests.filter((r) => r.method === method && r.path === path)
	}

	userByEmail(email: string): FakeUser | undefined {
		for (const user of this.users.values()) if (user.email === email) return user
		return undefined
	}

	/** A confirmed user, as an admin would create it. */
	addUser(email: string, password: string, metadata: Record<string, unknown> = {}): FakeUser {
		const now = new Date().toISOString()
		const user: FakeUser = {
			id: randomUUID(),
			email,
			password,
			confirmedAt: now,
			userMetadata: metadata,
			appMetadata: { provider: 'email', providers: ['email'] },
			factors: [],
			createdAt: now,
		}
		this.users.set(user.id, user)
		return user
	}

	/** What the provider's callback would leave at Supabase: a PKCE auth code for the user and the challenge from the authorize URL. */
	issueAuthCode(userId: string, authorizeUrl: string): string {
		const url = new URL(authorizeUrl)
		const challenge = url.searchParams.get('code_challenge')
		if (!challenge) throw new Error('the authorize URL carries no code_challenge')
		const code = randomUUID()
		this.#codes.set(code, { userId, challenge, method: url.searchParams.get('code_challenge_method') ?? 'plain' })
		return code
	}

	/** The user's identities; a new user starts with its email identity. */
	identitiesOf(user: FakeUser): FakeIdentity[] {
		let list = this.#identities.get(user.id)
		if (!list) {
			list = [
				{
					identity_id: randomUUID(),
					id: user.id,
					provider: 'email',
					identity_data: { email: user.email, email_verified: user.confirmedAt !== null, phone_verified: false, sub: user.id },
					created_at: user.createdAt,
				},
			]
			this.#identities.set(user.id, list)
		}
		return list
	}

	/** A user who signed up with a provider only: that identity and no email identity. */
	setIdentities(user: FakeUser, identities: Omit<FakeIdentity, 'identity_id' | 'created_at'>[]): void {
		const at = new Date().toISOString()
		this.#identities.set(
			user.id,
			identities.map((i) => ({ ...i, identity_id: randomUUID(), created_at: at })),
		)
	}

	/**
	 * What happens after the provider step of a link flow (the URL from GET
	 * /user/identities/authorize): Supabase links the identity and sends the
	 * browser back with a PKCE code, or with identity_already_exists when
	 * another user holds that identity.
	 */
	completeLink(authorizeUrl: string, identity: { id: string; identity_data: Record<string, unknown> }): { code: string } | { error: string } {
		const flow = this.#links.get(new URL(authorizeUrl).searchParams.get('flow_state') ?? '')
		if (!flow) throw new Error('no link flow behind this URL')
		for (const [userId, list] of this.#identities) {
			if (userId !== flow.userId && list.some((i) => i.provider === flow.provider && i.id === identity.id)) return { error: 'identity_already_exists' }
		}
		const user = this.users.get(flow.userId)
		if (!user) throw new Error('the linking user is gone')
		this.identitiesOf(user).push({ identity_id: randomUUID(), provider: flow.provider, created_at: new Date().toISOString(), ...identity })
		const code = randomUUID()
		this.#codes.set(code, { userId: flow.userId, challenge: flow.challenge, method: flow.method })
		return { code }
	}

	activeSessions(userId: string): number {
		return [...this.#sessions.values()].filter((s) => s.userId === userId && !s.revoked).length
	}

	// ---------------------------------------------------------------------------

	async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', this.#url)
		const text = await new Promise<string>((resolve) => {
			let data = ''
			req.setEncoding('utf8')
			req.on('data', (chunk: string) => (data += chunk))
			req.on('end', () => resolve(data))
		})
		let body: Record<string, unknown> | null = null
		if (text) {
			try {
				body = JSON.parse(text) as Record<string, unknown>
			} catch {
				body = null
			}
		}
		const path = url.pathname.replace(/^\/auth\/v1/, '')
		const recorded: RecordedRequest = { method: req.method ?? 'GET', path, query: url.searchParams, headers: req.headers, body }
		this.requests.push(recorded)
		res.setHeader('x-supabase-api-version', API_VERSION)
		if (!this.up) return this.#json(res, 503, { message: 'upstream connect error' })
		const index = this.#overrides.findIndex((o) => o.method === recorded.method && o.path === path)
		if (index >= 0) {
			const [override] = this.#overrides.splice(index, 1)
			return override?.respond(recorded, res)
		}
		try {
			this.#route(recorded, res)
		} catch (error) {
			this.#json(res, 500, { code: 'unexpected_failure', message: String(error) })
		}
	}

	#route(r: RecordedRequest, res: ServerResponse): void {
		const b = r.body ?? {}
		const key = `${r.method} ${r.path}`
		const grant = r.query.get('grant_type')
		if (key === 'GET /.well-known/jwks.json') return this.#json(res, 200, { keys: [this.#jwk] })
		if (key === 'GET /settings') {
			return this.#json(res, 200, {
				external: this.providers,
				disable_signup: false,
				mailer_autoconfirm: false,
				phone_autoconfirm: false,
				sms_provider: '',
				saml_enabled: false,
			})
		}
		if (key === 'POST /signup') return this.#signup(r, b, res)
		if (key === 'POST /token' && grant === 'password') return this.#passwordGrant(b, res)
		if (key === 'POST /token' && grant === 'pkce') return this.#pkceGrant(b, res)
		if (key === 'POST /token' && grant === 'refresh_token') return this.#refreshGrant(b, res)
		if (key === 'POST /verify') return this.#verify(b, res)
		if (key === 'POST /recover') return this.#mailIfKnown(r, b, 'recovery', res)
		if (key === 'POST /resend') return this.#mailIfKnown(r, b, 'signup', res)
		if (key === 'GET /user') return this.#withSession(r, res, (s, u) => this.#json(res, 200, this.#userJson(u)))
		if (key === 'PUT /user') return this.#withSession(r, res, (s, u) => this.#updateUser(s, u, b, res))
		if (key === 'POST /logout') return this.#logout(r, res)
		if (key === 'GET /user/identities/authorize') return this.#withSession(r, res, (_s, u) => this.#authorizeLink(r, u, res))
		const identity = /^\/user\/identities\/([^/]+)$/.exec(r.path)
		if (r.method === 'DELETE' && identity?.[1]) return this.#withSession(r, res, (_s, u) => this.#unlink(u, identity[1] ?? '', res))
		if (key === 'POST /factors') return this.#withSession(r, res, (_s, u) => this.#enroll(u, b, res))
		const factor = /^\/factors\/([^/]+)(?:\/(challenge|verify))?$/.exec(r.path)
		if (factor?.[1]) return this.#withSession(r, res, (s, u) => this.#factor(r.method, factor[1] ?? '', factor[2], s, u, b, res))
		const admin = /^\/admin\/users\/([^/]+)$/.exec(r.path)
		if (admin?.[1]) return this.#admin(r, admin[1], res)
		this.#error(res, 404, 'not_found', `no route for ${key}`)
	}

	#authorizeLink(r: RecordedRequest, user: FakeUser, res: ServerResponse): void {
		if (!this.manualLinking) return this.#error(res, 404, 'manual_linking_disabled', 'Manual linking is disabled')
		const provider = r.query.get('provider') ?? ''
		if (!this.providers[provider]) return this.#error(res, 400, 'validation_failed', 'Unsupported provider: Provider is not enabled')
		const challenge = r.query.get('code_challenge')
		if (!challenge || r.query.get('skip_http_redirect') !== 'true') return this.#error(res, 400, 'validation_failed', 'PKCE flow with skip_http_redirect expected')
		const flowState = randomUUID()
		this.#links.set(flowState, { userId: user.id, provider, challenge, method: r.query.get('code_challenge_method') ?? 'plain' })
		// Where the real one points at the provider; the test calls completeLink for the provider's part.
		const url = new URL(`${this.#url}/fake-provider/${provider}`)
		url.searchParams.set('flow_state', flowState)
		url.searchParams.set('redirect_to', r.query.get('redirect_to') ?? '')
		this.#json(res, 200, { url: url.toString() })
	}

	#unlink(user: FakeUser, identityId: string, res: ServerResponse): void {
		const list = this.identitiesOf(user)
		const index = list.findIndex((i) => i.identity_id === identityId)
		if (index < 0) return this.#error(res, 404, 'identity_not_found', 'Identity doesn\'t exist')
		if (list.length === 1) return this.#error(res, 422, 'single_identity_not_deletable', 'User must have at least 1 identity after unlinking')
		list.splice(index, 1)
		this.#json(res, 200, {})
	}

	#signup(r: RecordedRequest, b: Record<string, unknown>, res: ServerResponse): void {
		const email = String(b.email ?? '')
		const password = String(b.password ?? '')
		if (password.length < 6) return this.#error(res, 422, 'weak_password', 'Password should be at least 6 characters.', { weak_password: { reasons: ['length'] } })
		const existing = this.userByEmail(email)
		if (existing?.confirmedAt) {
			// Supabase's answer for a confirmed address: a made-up user with no identities, no mail.
			return this.#json(res, 200, { ...this.#userJson({ ...existing, id: randomUUID(), factors: [] }), identities: [] })
		}
		const user = existing ?? {
			id: randomUUID(),
			email,
			password,
			confirmedAt: null,
			userMetadata: (b.data as Record<string, unknown>) ?? {},
			appMetadata: { provider: 'email', providers: ['email'] },
			factors: [],
			createdAt: new Date().toISOString(),
		}
		this.users.set(user.id, user)
		this.#mail(user, 'signup', r.query.get('redirect_to'))
		return this.#json(res, 200, { ...this.#userJson(user), confirmation_sent_at: new Date().toISOString() })
	}

	#passwordGrant(b: Record<string, unknown>, res: ServerResponse): void {
		const user = this.userByEmail(String(b.email ?? ''))
		if (!user || user.password !== b.password) return this.#error(res, 400, 'invalid_credentials', 'Invalid login credentials')
		if (!user.confirmedAt) return this.#error(res, 400, 'email_not_confirmed', 'Email not confirmed')
		return this.#json(res, 200, this.#newSession(user, 'aal1', [{ method: 'password' }]))
	}

	#pkceGrant(b: Record<string, unknown>, res: ServerResponse): void {
		const entry = this.#codes.get(String(b.auth_code ?? ''))
		if (!entry) return this.#error(res, 404, 'flow_state_not_found', 'invalid flow state, no valid flow state found')
		this.#codes.delete(String(b.auth_code))
		const verifier = String(b.code_verifier ?? '')
		const computed = entry.method === 's256' ? createHash('sha256').update(verifier).digest('base64url') : verifier
		if (computed !== entry.challenge) return this.#error(res, 400, 'bad_code_verifier', 'code challenge does not match previously saved code verifier')
		const user = this.users.get(entry.userId)
		if (!user) return this.#error(res, 404, 'user_not_found', 'User not found')
		return this.#json(res, 200, this.#newSession(user, 'aal1', [{ method: 'oauth' }]))
	}

	#refreshGrant(b: Record<string, unknown>, res: ServerResponse): void {
		const sessionId = this.#refresh.get(String(b.refresh_token ?? ''))
		const session = sessionId ? this.#sessions.get(sessionId) : undefined
		if (!session || session.revoked) return this.#error(res, 400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found')
		const user = this.users.get(session.userId)
		if (!user) return this.#error(res, 400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found')
		this.#refresh.delete(String(b.refresh_token))
		return this.#json(res, 200, this.#sessionJson(session, user))
	}

	#verify(b: Record<string, unknown>, res: ServerResponse): void {
		const entry = this.#mailTokens.get(String(b.token_hash ?? ''))
		const type = String(b.type ?? '')
		const matches = entry && (entry.type === type || (entry.type === 'signup' && type === 'email'))
		const user = entry ? this.users.get(entry.userId) : undefined
		if (!entry || !matches || !user) return this.#error(res, 403, 'otp_expired', 'Email link is invalid or has expired')
		this.#mailTokens.delete(String(b.token_hash))
		user.confirmedAt ??= new Date().toISOString()
		return this.#json(res, 200, this.#newSession(user, 'aal1', [{ method: type === 'recovery' ? 'recovery' : 'otp' }]))
	}

	#mailIfKnown(r: RecordedRequest, b: Record<string, unknown>, type: 'signup' | 'recovery', res: ServerResponse): void {
		const user = this.userByEmail(String(b.email ?? ''))
		// Unknown addresses (and, for resend, confirmed ones) get the same 200.
		if (user && (type === 'recovery' || !user.confirmedAt)) this.#mail(user, type, r.query.get('redirect_to'))
		return this.#json(res, 200, {})
	}

	#updateUser(session: FakeSession, user: FakeUser, b: Record<string, unknown>, res: ServerResponse): void {
		if (typeof b.password === 'string') {
			if (user.factors.some((f) => f.status === 'verified') && session.aal !== 'aal2') {
				return this.#error(res, 403, 'insufficient_aal', 'AAL2 session is required to update email or password when MFA is enabled.')
			}
			if (b.password.length < 6) return this.#error(res, 422, 'weak_password', 'Password should be at least 6 characters.', { weak_password: { reasons: ['length'] } })
			if (b.password === user.password) return this.#error(res, 422, 'same_password', 'New password should be different from the old password.')
			user.password = b.password
		}
		if (b.data && typeof b.data === 'object') user.userMetadata = { ...user.userMetadata, ...(b.data as Record<string, unknown>) }
		return this.#json(res, 200, this.#userJson(user))
	}

	#logout(r: RecordedRequest, res: ServerResponse): void {
		const session = this.#sessionOf(r)
		if (!session) return this.#error(res, 403, 'session_not_found', 'Session from session_id claim in JWT does not exist')
		const scope = r.query.get('scope') ?? 'global'
		for (const s of this.#sessions.values()) {
			if (s.userId !== session.userId) continue
			if (scope === 'global' || (scope === 'local' && s.id === session.id) || (scope === 'others' && s.id !== session.id)) s.revoked = true
		}
		res.writeHead(204).end()
	}

	#enroll(user: FakeUser, b: Record<string, unknown>, res: ServerResponse): void {
		const name = String(b.friendly_name ?? '')
		if (user.factors.some((f) => f.friendly_name === name)) {
			return this.#error(res, 422, 'mfa_factor_name_conflict', `A factor with the friendly name "${name}" for this user already exists`)
		}
		const now = new Date().toISOString()
		const secret = randomBytes(20).toString('hex').toUpperCase().slice(0, 32)
		const factor: FakeFactor = { id: randomUUID(), friendly_name: name, factor_type: 'totp', status: 'unverified', created_at: now, updated_at: now, secret }
		user.factors.push(factor)
		const uri = `otpauth://totp/${encodeURIComponent(String(b.issuer ?? ''))}:${encodeURIComponent(user.email)}?issuer=${encodeURIComponent(String(b.issuer ?? ''))}&secret=${secret}`
		return this.#json(res, 200, { id: factor.id, type: 'totp', friendly_name: name, totp: { qr_code: '<svg></svg>', secret, uri } })
	}

	#factor(method: string, id: string, action: string | undefined, session: FakeSession, user: FakeUser, b: Record<string, unknown>, res: ServerResponse): void {
		const factor = user.factors.find((f) => f.id === id)
		if (!factor) return this.#error(res, 404, 'mfa_factor_not_found', 'Factor not found')
		if (method === 'POST' && action === 'challenge') {
			const challengeId = randomUUID()
			this.#challenges.set(challengeId, factor.id)
			return this.#json(res, 200, { id: challengeId, type: 'totp', expires_at: Math.floor(Date.now() / 1000) + 300 })
		}
		if (method === 'POST' && action === 'verify') {
			if (this.#challenges.get(String(b.challenge_id ?? '')) !== factor.id) return this.#error(res, 422, 'mfa_challenge_expired', 'Challenge and verify IP addresses mismatch')
			this.#challenges.delete(String(b.challenge_id))
			if (b.code !== this.totpCode) return this.#error(res, 422, 'mfa_verification_failed', 'Invalid TOTP code entered')
			factor.status = 'verified'
			session.aal = 'aal2'
			session.amr = [{ method: 'totp', timestamp: now() }, ...session.amr]
			return this.#json(res, 200, this.#sessionJson(session, user))
		}
		if (method === 'DELETE' && !action) {
			if (factor.status === 'verified' && session.aal !== 'aal2') return this.#error(res, 403, 'insufficient_aal', 'AAL2 required to unenroll verified factor')
			user.factors = user.factors.filter((f) => f.id !== id)
			// Removing the last verified factor downgrades the session (a refresh then issues aal1).
			if (factor.status === 'verified' && !user.factors.some((f) => f.status === 'verified')) session.aal = 'aal1'
			return this.#json(res, 200, { id })
		}
		return this.#error(res, 405, 'method_not_allowed', 'Method not allowed')
	}

	#admin(r: RecordedRequest, id: string, res: ServerResponse): void {
		if (r.headers.authorization !== `Bearer ${this.serviceRoleKey}`) return this.#error(res, 403, 'not_admin', 'User not allowed')
		const user = this.users.get(id)
		if (!user) return this.#error(res, 404, 'user_not_found', 'User not found')
		if (r.method === 'GET') return this.#json(res, 200, this.#userJson(user))
		if (r.method === 'PUT') {
			const body = (r.body ?? {}) as { password?: unknown; app_metadata?: Record<string, unknown> }
			if (typeof body.password === 'string') user.password = body.password
			// Supabase merges app_metadata; a null value removes the key.
			for (const [key, value] of Object.entries(body.app_metadata ?? {})) {
				if (value === null) delete user.appMetadata[key]
				else user.appMetadata[key] = value
			}
			return this.#json(res, 200, this.#userJson(user))
		}
		if (r.method !== 'DELETE') return this.#error(res, 405, 'method_not_allowed', 'Method not allowed')
		this.users.delete(id)
		for (const s of this.#sessions.values()) if (s.userId === id) s.revoked = true
		// The Auth server answers the DELETE with an empty object.
		return this.#json(res, 200, {})
	}

	// ---------------------------------------------------------------------------

	#withSession(r: RecordedRequest, res: ServerResponse, fn: (s: FakeSession, u: FakeUser) => void): void {
		const token = /^Bearer (.+)$/.exec(String(r.headers.authorization ?? ''))?.[1]
		const claims = token ? this.#decode(token) : null
		if (!claims) return this.#error(res, 403, 'bad_jwt', 'invalid JWT: unable to parse or verify signature, token is malformed')
		const session = this.#sessions.get(String(claims.session_id))
		if (!session || session.revoked) return this.#error(res, 403, 'session_not_found', 'Session from session_id claim in JWT does not exist')
		const user = this.users.get(session.userId)
		if (!user) return this.#error(res, 403, 'user_not_found', 'User from sub claim in JWT does not exist')
		fn(session, user)
	}

	#sessionOf(r: RecordedRequest): FakeSession | null {
		const token = /^Bearer (.+)$/.exec(String(r.headers.authorization ?? ''))?.[1]
		const claims = token ? this.#decode(token) : null
		const session = claims ? this.#sessions.get(String(claims.session_id)) : undefined
		return session && !session.revoked ? session : null
	}

	#decode(token: string): Record<string, unknown> | null {
		const [header, payload, signature] = token.split('.')
		if (!header || !payload || !signature) return null
		const valid = verify('sha256', Buffer.from(`${header}.${payload}`), { key: this.#publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))
		if (!valid) return null
		const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>
		if (typeof claims.exp !== 'number' || claims.exp < now()) return null
		return claims
	}

	#jwt(payload: Record<string, unknown>): string {
		const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid: this.#jwk.kid, typ: 'JWT' })).toString('base64url')
		const body = Buffer.from(JSON.stringify(payload)).toString('base64url')
		const signature = sign('sha256', Buffer.from(`${header}.${body}`), { key: this.#privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')
		return `${header}.${body}.${signature}`
	}

	#newSession(user: FakeUser, aal: 'aal1' | 'aal2', methods: { method: string }[]): Record<string, unknown> {
		const session: FakeSession = {
			id: randomUUID(),
			userId: user.id,
			aal,
			amr: methods.map((m) => ({ method: m.method, timestamp: now() })),
			revoked: false,
			refreshToken: '',
		}
		this.#sessions.set(session.id, session)
		return this.#sessionJson(session, user)
	}

	#sessionJson(session: FakeSession, user: FakeUser): Record<string, unknown> {
		const iat = now()
		const refreshToken = randomBytes(9).toString('base64url')
		session.refreshToken = refreshToken
		this.#refresh.set(refreshToken, session.id)
		const accessToken = this.#jwt({
			iss: `${this.#url}/auth/v1`,
			sub: user.id,
			aud: 'authenticated',
			exp: iat + this.expiresIn,
			iat,
			email: user.email,
			phone: '',
			app_metadata: user.appMetadata,
			user_metadata: user.userMetadata,
			role: 'authenticated',
			aal: session.aal,
			amr: session.amr,
			session_id: session.id,
			is_anonymous: false,
		})
		return {
			access_token: accessToken,
			token_type: 'bearer',
			expires_in: this.expiresIn,
			expires_at: iat + this.expiresIn,
			refresh_token: refreshToken,
			user: this.#userJson(user),
		}
	}

	#userJson(user: FakeUser): Record<string, unknown> {
		const identities = this.identitiesOf(user).map((i) => ({
			...i,
			user_id: user.id,
			last_sign_in_at: i.created_at,
			updated_at: i.created_at,
			email: typeof i.identity_data.email === 'string' ? i.identity_data.email : undefined,
		}))
		return {
			id: user.id,
			aud: 'authenticated',
			role: 'authenticated',
			email: user.email,
			email_confirmed_at: user.confirmedAt,
			phone: '',
			confirmed_at: user.confirmedAt,
			last_sign_in_at: user.confirmedAt,
			app_metadata: user.appMetadata,
			user_metadata: user.userMetadata,
			identities,
			created_at: user.createdAt,
			updated_at: user.createdAt,
			is_anonymous: false,
			...(user.factors.length > 0
				? { factors: user.factors.map(({ secret: _secret, ...f }) => ({ ...f, last_challenged_at: null })) }
				: {}),
		}
	}

	#mail(user: FakeUser, type: 'signup' | 'recovery', redirectTo: string | null): void {
		const tokenHash = `pkce_${randomBytes(28).toString('hex')}`
		this.#mailTokens.set(tokenHash, { userId: user.id, type })
		this.mails.push({ type, email: user.email, redirectTo, tokenHash })
	}

	#json(res: ServerResponse, status: number, body: unknown): void {
		res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
	}

	#error(res: ServerResponse, status: number, code: string, message: string, extra: Record<string, unknown> = {}): void {
		this.#json(res, status, { code, message, ...extra })
	}
}

function now(): number {
	return Math.floor(Date.now() / 1000)
}
