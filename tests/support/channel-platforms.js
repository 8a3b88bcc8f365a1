// Stand-ins for YouTube (Google's OAuth and the YouTube Data API) and Kick
// (its OAuth 2.1 and public API), for linking a channel (ADR 037).
//
// Why: the real platforms are outside this machine (and would need real
// channels), so each is replaced by a small OAuth 2.0 authorization server on
// loopback that holds the app to the same protocol: the authorization request
// must carry the registered client id and redirect URI and an S256 PKCE
// challenge; the code is single-use, short-lived and bound to that client,
// redirect URI and challenge; the token request must bring the client secret
// (in the body, as Kick requires) and the matching verifier; the API answers
// only with a token it issued. The browser goes through a consent page that a
// test fills in like a person: it names the channel the "account" runs (empty:
// an account without a channel), then allows or denies.
//
// Plain JavaScript: start-server.js (the end-to-end server) runs it in its own
// Node process, and the Vitest suites import it too.
import { createHash, randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import { readBody } from './read-body.js'

const NAMES = { youtube: 'YouTube', kick: 'Kick' }

/**
 * Starts the stand-in of `platform` ('youtube' | 'kick') for an app at
 * `appUrl`; resolves to the app's environment variables that point the
 * platform at it, the server's `url`, and `close()`.
 */
export async function startChannelPlatform(platform, appUrl) {
	const name = NAMES[platform]
	if (!name) throw new Error(`unknown platform ${platform}`)
	const clientId = `e2e-${platform}-client`
	const clientSecret = randomBytes(24).toString('hex')
	const redirectUri = `${appUrl.replace(/\/+$/, '')}/api/channels/callback/${platform}`
	/** code -> { challenge, channel, expires } */
	const codes = new Map()
	/** access token -> channel ('' for an account without one) */
	const tokens = new Map()
	const received = { tokenRequests: 0 }

	const server = createServer((req, res) => {
		handle(req, res).catch((error) => {
			console.error(`[${platform} stand-in]`, error)
			if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
			res.end(String(error))
		})
	})

	async function handle(req, res) {
		const url = new URL(req.url ?? '/', 'http://loopback')
		if (url.pathname === '/oauth/authorize' && req.method === 'GET') return authorizePage(res, url.searchParams)
		if (url.pathname === '/oauth/authorize' && req.method === 'POST') return decide(res, new URLSearchParams(await readBody(req)))
		if (url.pathname === '/oauth/token' && req.method === 'POST') return token(res, new URLSearchParams(await readBody(req)))
		if (platform === 'youtube' && url.pathname === '/youtube/v3/channels' && req.method === 'GET') {
			const channel = bearer(req)
			if (channel === undefined) return json(res, 401, { error: { code: 401, message: 'Invalid Credentials' } })
			if (url.searchParams.get('mine') !== 'true') return json(res, 400, { error: { code: 400, message: 'mine=true expected' } })
			return json(res, 200, { kind: 'youtube#channelListResponse', items: channel ? [{ kind: 'youtube#channel', id: channel }] : [] })
		}
		if (platform === 'kick' && url.pathname === '/public/v1/channels' && req.method === 'GET') {
			const channel = bearer(req)
			if (channel === undefined) return json(res, 401, { message: 'Unauthorized' })
			const id = Number.parseInt(createHash('sha256').update(channel).digest('hex').slice(0, 8), 16)
			return json(res, 200, { data: channel ? [{ broadcaster_user_id: id, slug: channel }] : [], message: 'OK' })
		}
		return json(res, 404, { error: 'not_found' })
	}

	/** The request must be one the real platform would take from this client. */
	function invalidRequest(params) {
		if (params.get('response_type') !== 'code') return 'response_type must be code'
		if (params.get('client_id') !== clientId) return 'unknown client'
		if (params.get('redirect_uri') !== redirectUri) return 'redirect_uri is not registered'
		if (params.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(params.get('code_challenge') ?? '')) return 'PKCE (S256) is required'
		if (!params.get('state')) return 'state is required'
		return null
	}

	function authorizePage(res, params) {
		const problem = invalidRequest(params)
		if (problem) return send(res, 400, page(`${name}: error`, `<h1>Bad request</h1><p>${escape(problem)}</p>`))
		const hidden = [...params].map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`).join('')
		return send(
			res,
			200,
			page(
				`${name}: allow Dareboost`,
				`<h1>Allow Dareboost to see your ${escape(name)} channel?</h1>
				<p>Loopback stand-in for ${escape(name)} (tests). Name the channel this account runs; leave it empty for an account without a channel.</p>
				<form method="post" action="/oauth/authorize">${hidden}
					<p><label>Channel <input name="channel" autocomplete="off"></label></p>
					<p><button type="submit" name="decision" value="allow">Allow</button>
					<button type="submit" name="decision" value="deny">Deny</button></p>
				</form>`,
			),
		)
	}

	function decide(res, form) {
		const problem = invalidRequest(form)
		if (problem) return send(res, 400, page(`${name}: error`, `<h1>Bad request</h1><p>${escape(problem)}</p>`))
		const back = new URL(redirectUri)
		back.searchParams.set('state', form.get('state') ?? '')
		if (form.get('decision') !== 'allow') {
			back.searchParams.set('error', 'access_denied')
		} else {
			const code = randomBytes(16).toString('hex')
			codes.set(code, { challenge: form.get('code_challenge'), channel: (form.get('channel') ?? '').trim(), expires: Date.now() + 60_000 })
			back.searchParams.set('code', code)
		}
		res.writeHead(302, { location: back.toString() }).end()
	}

	function token(res, form) {
		received.tokenRequests++
		if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) return json(res, 401, { error: 'invalid_client' })
		if (form.get('grant_type') !== 'authorization_code') return json(res, 400, { error: 'unsupported_grant_type' })
		const code = codes.get(form.get('code') ?? '')
		codes.delete(form.get('code') ?? '')
		if (!code || code.expires < Date.now() || form.get('redirect_uri') !== redirectUri) return json(res, 400, { error: 'invalid_grant' })
		const challenge = createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url')
		if (challenge !== code.challenge) return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' })
		const accessToken = randomBytes(24).toString('hex')
		tokens.set(accessToken, code.channel)
		return json(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, scope: platform === 'kick' ? 'user:read channel:read' : 'https://www.googleapis.com/auth/youtube.readonly' })
	}

	function bearer(req) {
		const match = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')
		return match ? tokens.get(match[1]) : undefined
	}

	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
	const url = `http://127.0.0.1:${server.address().port}`
	const prefix = platform.toUpperCase()
	return {
		url,
		received,
		env: {
			[`${prefix}_CLIENT_ID`]: clientId,
			[`${prefix}_CLIENT_SECRET`]: clientSecret,
			[`${prefix}_AUTH_URL`]: `${url}/oauth/authorize`,
			[`${prefix}_TOKEN_URL`]: `${url}/oauth/token`,
			[`${prefix}_API_URL`]: platform === 'youtube' ? `${url}/youtube/v3` : `${url}/public/v1`,
		},
		close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
	}
}


function json(res, status, body) {
	res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body))
}

function send(res, status, html) {
	res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(html)
}

function page(title, body) {
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body>${body}</body></html>`
}

function escape(value) {
	return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c])
}
