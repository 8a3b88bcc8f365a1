// Stand-ins for Google and Twitch in the end-to-end tests.
//
// Why: the real Google and Twitch are outside this machine (and would need
// real accounts), so each is replaced by a real OpenID Connect provider on
// loopback (the `oidc-provider` package, certified OpenID). The app talks to
// them exactly as it would to the real ones (discovery, authorization
// redirect, code exchange with the client secret, ID token signature,
// audience and nonce checks against the published JWKS), and the browser
// goes through a login and a consent page that the test fills in, like a
// person would at Google or Twitch.
//
// Plain JavaScript (not tests/auth/support/oidc.ts, which the Vitest suites
// use in-process): start-server.js runs these in its own Node process, which
// cannot load TypeScript, and the Vitest helper signs in whatever account
// the test set beforehand, without a page; here the browser must sign in.
//
// Accounts: any username and any non-empty password sign in; the first
// sign-in of a username creates its account (a stable numeric id derived from
// the username, the verified address <username>@<provider>.example.test), so
// a test picks a unique username for an account of its own. "Cancel" on the
// login page and "Deny" on the consent page answer the app with the
// standard access_denied error.
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import Provider from 'oidc-provider'
import { readBody } from './read-body.js'

/**
 * Starts both stand-ins and resolves to the app's environment variables that
 * point Google and Twitch sign-in at them. `appUrl` is the app's APP_URL
 * (the redirect URIs are registered under it).
 */
export async function startIdentityProviders(appUrl) {
	const callback = `${appUrl.replace(/\/+$/, '')}/api/auth/provider/callback`
	const google = await startProvider({
		id: 'google',
		name: 'Google',
		clientId: 'e2e-google-client',
		clientSecret: randomBytes(24).toString('hex'),
		redirectUri: `${callback}/google`,
		scopes: ['openid', 'email', 'profile'],
	})
	const twitch = await startProvider({
		id: 'twitch',
		name: 'Twitch',
		clientId: 'e2e-twitch-client',
		clientSecret: randomBytes(24).toString('hex'),
		redirectUri: `${callback}/twitch`,
		scopes: ['openid', 'user:read:email'],
		// The app reads the channel login from Twitch's Helix API (GET /users).
		helix: true,
	})
	return {
		GOOGLE_ISSUER: google.issuer,
		GOOGLE_CLIENT_ID: google.clientId,
		GOOGLE_CLIENT_SECRET: google.clientSecret,
		TWITCH_ISSUER: twitch.issuer,
		TWITCH_CLIENT_ID: twitch.clientId,
		TWITCH_CLIENT_SECRET: twitch.clientSecret,
		TWITCH_API_URL: `${twitch.issuer}/helix`,
	}
}

async function startProvider({ id, name, clientId, clientSecret, redirectUri, scopes, helix = false }) {
	/** Accounts by their subject (`sub`), created on their first sign-in. */
	const accounts = new Map()

	const server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://loopback')
		let handled
		if (url.pathname.startsWith('/interaction/')) handled = interaction(req, res)
		else if (helix && url.pathname === '/helix/users') handled = helixUsers(req, res)
		else return provider.callback()(req, res)
		handled.catch((error) => {
			console.error(`[${id} stand-in]`, error)
			if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
			res.end(String(error))
		})
	})
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
	const issuer = `http://127.0.0.1:${server.address().port}`

	const provider = new Provider(issuer, {
		clients: [
			{
				client_id: clientId,
				client_secret: clientSecret,
				client_name: 'Dareboost',
				redirect_uris: [redirectUri],
				token_endpoint_auth_method: 'client_secret_post',
			},
		],
		async findAccount(_ctx, sub) {
			const account = accounts.get(sub)
			if (!account) return undefined
			return {
				accountId: sub,
				async claims() {
					return {
						sub,
						email: account.email,
						email_verified: true,
						name: account.displayName,
						preferred_username: account.displayName,
					}
				},
			}
		},
		claims: {
			openid: ['sub'],
			email: ['email', 'email_verified'],
			profile: ['name', 'preferred_username'],
		},
		scopes,
		features: { devInteractions: { enabled: false }, claimsParameter: { enabled: true } },
		interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
		// Google's client sends PKCE, Twitch's does not take it.
		pkce: { required: () => false },
		jwks: {
			keys: [
				{ ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: `${id}-e2e`, use: 'sig', alg: 'RS256' },
			],
		},
		// Both stand-ins live on 127.0.0.1, whose cookies ignore the port:
		// names of their own keep their sessions apart (and clear of the app's).
		cookies: {
			keys: [randomBytes(32).toString('hex')],
			names: { session: `${id}_idp_session`, interaction: `${id}_idp_interaction`, resume: `${id}_idp_resume` },
		},
		ttl: { AccessToken: 3600, AuthorizationCode: 60, Grant: 3600, IdToken: 3600, Interaction: 600, Session: 3600 },
		async renderError(ctx, out) {
			ctx.type = 'html'
			ctx.body = page(`${name}: error`, `<h1>${escape(out.error)}</h1><p>${escape(out.error_description ?? '')}</p>`)
		},
	})

	async function interaction(req, res) {
		const details = await provider.interactionDetails(req, res)
		const prompt = details.prompt.name
		if (req.method === 'GET') return render(res, details)
		if (req.method !== 'POST') return send(res, 405, page('Method not allowed', ''))
		const form = new URLSearchParams(await readBody(req))
		const decision = form.get('decision')

		if (decision === 'cancel' || decision === 'deny') {
			await provider.interactionFinished(
				req,
				res,
				{ error: 'access_denied', error_description: 'The user did not allow the sign-in' },
				{ mergeWithLastSubmission: false },
			)
			return
		}

		if (prompt === 'login' && decision === 'sign-in') {
			const username = (form.get('username') ?? '').trim().toLowerCase()
			const password = form.get('password') ?? ''
			if (!/^[a-z0-9_]{1,25}$/.test(username) || password === '') {
				return render(res, details, 'Wrong username or password.')
			}
			const sub = subjectOf(username)
			if (!accounts.has(sub)) {
				accounts.set(sub, { login: username, displayName: username, email: `${username}@${id}.example.test` })
			}
			await provider.interactionFinished(req, res, { login: { accountId: sub } }, { mergeWithLastSubmission: false })
			return
		}

		if (prompt === 'consent' && decision === 'allow') {
			const accountId = details.session?.accountId
			const clientIdOfRequest = String(details.params.client_id)
			const grant =
				(details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
				new provider.Grant({ accountId, clientId: clientIdOfRequest })
			const { missingOIDCScope, missingOIDCClaims } = details.prompt.details
			if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '))
			if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims)
			const grantId = await grant.save()
			await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true })
			return
		}
		return render(res, details)
	}

	function render(res, details, error) {
		const action = `/interaction/${encodeURIComponent(details.uid)}`
		const problem = error ? `<p role="alert">${escape(error)}</p>` : ''
		if (details.prompt.name === 'login') {
			return send(
				res,
				error ? 400 : 200,
				page(
					`Sign in to ${name}`,
					`<h1>Sign in to ${escape(name)}</h1>
					<p>Loopback stand-in for ${escape(name)} (end-to-end tests). Any username and password sign in.</p>
					${problem}
					<form method="post" action="${action}">
						<p><label>Username <input name="username" autocomplete="off" required></label></p>
						<p><label>Password <input name="password" type="password" required></label></p>
						<p>
							<button type="submit" name="decision" value="sign-in">Sign in</button>
							<button type="submit" name="decision" value="cancel" formnovalidate>Cancel</button>
						</p>
					</form>`,
				),
			)
		}
		const account = accounts.get(details.session?.accountId)
		const asked = [...(details.prompt.details.missingOIDCScope ?? []), ...(details.prompt.details.missingOIDCClaims ?? [])]
		return send(
			res,
			200,
			page(
				`Authorize Dareboost`,
				`<h1>Authorize Dareboost</h1>
				<p>Signed in to ${escape(name)} as <strong>${escape(account?.login ?? '?')}</strong>.
				Dareboost asks for: ${asked.map(escape).join(', ')}.</p>
				<form method="post" action="${action}">
					<button type="submit" name="decision" value="allow">Allow</button>
					<button type="submit" name="decision" value="deny">Deny</button>
				</form>`,
			),
		)
	}

	/** A Helix-like `GET /helix/users`: the owner of the bearer token. */
	async function helixUsers(req, res) {
		const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
		const found = token ? await provider.AccessToken.find(token) : undefined
		const account = found ? accounts.get(found.accountId) : undefined
		if (!account || req.headers['client-id'] !== clientId) {
			return send(res, 401, JSON.stringify({ error: 'Unauthorized', status: 401 }), 'application/json')
		}
		const user = { id: found.accountId, login: account.login, display_name: account.displayName, email: account.email }
		return send(res, 200, JSON.stringify({ data: [user] }), 'application/json')
	}

	/** Numeric, like Google's and Twitch's user ids; stable per username. */
	function subjectOf(username) {
		const hash = createHash('sha256').update(`${id}:${username}`).digest()
		return String(hash.readBigUInt64BE(0) % 10n ** 15n)
	}

	return { issuer, clientId, clientSecret }
}

function page(title, body) {
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body>${body}</body></html>`
}

function send(res, status, body, type = 'text/html; charset=utf-8') {
	res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' })
	res.end(body)
}


function escape(value) {
	return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
