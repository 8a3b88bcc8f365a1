import { generateKeyPairSync } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

/**
 * A real OpenID Connect provider (the `oidc-provider` package, certified
 * OpenID) on loopback, standing in for Google and Twitch: the real ones are
 * outside this machine and cannot sign a test user in. Better Auth talks to
 * it exactly as it would to them: discovery, authorization redirect, code
 * exchange with the client secret, ID token signature, audience and nonce
 * checks against the published JWKS.
 *
 * Its login and consent screens are replaced by an automatic interaction that
 * signs in `nextAccount` and grants what the client asked for. It also serves
 * a Helix-like `GET /helix/users` (Twitch's API, which the Twitch provider
 * reads the channel login from), answering for the owner of the bearer token.
 */
export interface TestAccount {
	id: string
	email: string
	emailVerified: boolean
	name: string
	/** Twitch login (channel name). */
	login?: string
}

export interface TestIdentityProvider {
	issuer: string
	clients: { google: { clientId: string; clientSecret: string }; twitch: { clientId: string; clientSecret: string } }
	nextAccount: TestAccount | null
	/** Every access token the provider issued (opaque tokens: their value is their jti). */
	issuedAccessTokens: string[]
	close(): Promise<void>
}

export async function startIdentityProvider(appCallbackBase: string): Promise<TestIdentityProvider> {
	const accounts = new Map<string, TestAccount>()
	const state: { nextAccount: TestAccount | null } = { nextAccount: null }

	const server: Server = createServer((req, res) => {
		void (async () => {
			const url = new URL(req.url ?? '/', 'http://localhost')
			if (url.pathname.startsWith('/interaction/')) return interact(req, res)
			if (url.pathname === '/helix/users') return helixUsers(req, res)
			provider.callback()(req, res)
		})().catch((error: unknown) => {
			res.statusCode = 500
			res.end(String(error))
		})
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const { port } = server.address() as AddressInfo
	const issuer = `http://127.0.0.1:${port}`

	const clients = {
		google: { clientId: 'google-test-client', clientSecret: 'google-test-secret-0123456789abcdef' },
		twitch: { clientId: 'twitch-test-client', clientSecret: 'twitch-test-secret-0123456789abcdef' },
	}
	const provider: Provider = new Provider(issuer, {
		clients: [
			{
				client_id: clients.google.clientId,
				client_secret: clients.google.clientSecret,
				redirect_uris: [`${appCallbackBase}/google`],
				token_endpoint_auth_method: 'client_secret_post',
			},
			{
				client_id: clients.twitch.clientId,
				client_secret: clients.twitch.clientSecret,
				redirect_uris: [`${appCallbackBase}/twitch`],
				token_endpoint_auth_method: 'client_secret_post',
			},
		],
		async findAccount(_ctx: unknown, id: string) {
			const account = accounts.get(id)
			if (!account) return undefined
			return {
				accountId: id,
				async claims() {
					return {
						sub: id,
						email: account.email,
						email_verified: account.emailVerified,
						name: account.name,
						preferred_username: account.name,
					}
				},
			}
		},
		claims: {
			openid: ['sub'],
			email: ['email', 'email_verified'],
			profile: ['name', 'preferred_username'],
		},
		scopes: ['openid', 'email', 'profile', 'user:read:email'],
		features: { devInteractions: { enabled: false }, claimsParameter: { enabled: true } },
		interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
		pkce: { required: () => false },
		jwks: { keys: [{ ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'loopback', use: 'sig', alg: 'RS256' }] },
		ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
		cookies: { keys: ['loopback-test-cookie-key-0123456789'] },
		// Quiet: nothing here should be mistaken for a production setup.
		renderError(ctx: { type: string; body: string }, out: Record<string, unknown>) {
			ctx.type = 'json'
			ctx.body = JSON.stringify(out)
		},
	})

	const issuedAccessTokens: string[] = []
	provider.on('access_token.saved', (token) => {
		issuedAccessTokens.push((token as { jti: string }).jti)
	})

	async function interact(req: Parameters<Provider['interactionDetails']>[0], res: Parameters<Provider['interactionDetails']>[1]) {
		const p = provider
		const details = await p.interactionDetails(req, res)
		if (details.prompt.name === 'login') {
			const account = state.nextAccount
			if (!account) throw new Error('no nextAccount set for the loopback identity provider')
			accounts.set(account.id, account)
			await p.interactionFinished(req, res, { login: { accountId: account.id } }, { mergeWithLastSubmission: false })
			return
		}
		const accountId = details.session?.accountId
		const clientId = String(details.params.client_id)
		if (!accountId) throw new Error('consent without a login')
		const grant = details.grantId ? ((await p.Grant.find(details.grantId)) ?? new p.Grant({ accountId, clientId })) : new p.Grant({ accountId, clientId })
		const missingScope = details.prompt.details.missingOIDCScope as string[] | undefined
		const missingClaims = details.prompt.details.missingOIDCClaims as string[] | undefined
		if (missingScope) grant.addOIDCScope(missingScope.join(' '))
		if (missingClaims) grant.addOIDCClaims(missingClaims)
		const grantId = await grant.save()
		await p.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true })
	}

	async function helixUsers(req: Parameters<Provider['interactionDetails']>[0], res: Parameters<Provider['interactionDetails']>[1]) {
		const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
		const found = token ? await provider.AccessToken.find(token) : undefined
		const account = found ? accounts.get(found.accountId) : undefined
		if (!account || req.headers['client-id'] !== clients.twitch.clientId) {
			res.statusCode = 401
			res.end('{"error":"Unauthorized"}')
			return
		}
		res.setHeader('content-type', 'application/json')
		res.end(
			JSON.stringify({
				data: [{ id: account.id, login: account.login ?? account.name.toLowerCase(), display_name: account.name, email: account.email }],
			}),
		)
	}

	return {
		issuer,
		clients,
		issuedAccessTokens,
		get nextAccount() {
			return state.nextAccount
		},
		set nextAccount(account) {
			state.nextAccount = account
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections()
				server.close(() => resolve())
			}),
	}
}
