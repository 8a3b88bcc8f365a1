// A loopback stand-in for the part of Stripe that pays creators
// (docs/decisions/052-stripe-connect-payouts.md): Accounts v2 with the
// recipient configuration, v2 account links, v1 transfers, and the signed
// events Stripe would send about them.
//
// Why: Stripe is outside this machine, and a real test account cannot be
// onboarded by a test. The app talks to this with the real Stripe SDK
// (STRIPE_API_URL), and the stand-in holds it to the protocol the app relies
// on: the secret key on every call; an Idempotency-Key on every POST, whose
// first answer is replayed for the same request and refused (idempotency_error)
// for a different one; JSON bodies on /v2 and form bodies on /v1; a v2
// account's configuration, requirements and identity only when `include`d;
// account links only for accounts it made, of use case account_onboarding
// for the recipient configuration, with both return and refresh URLs; a
// transfer only to an account whose stripe_balance.stripe_transfers
// capability is active, in an amount the platform's balance covers.
//
// Plain JavaScript: an end-to-end server can run it in its own Node process,
// and the Vitest suites import it too.
import { createHash, randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import Stripe from 'stripe'
import { readBody } from './read-body.js'

const id = (prefix) => `${prefix}_${randomBytes(12).toString('hex')}`

/** What a fresh account still needs from its creator (Stripe's requirement descriptions). */
const ONBOARDING_REQUIREMENTS = ['identity.individual.dob', 'identity.individual.address', 'payout_method', 'identity.attestations.terms_of_service.account']

/**
 * Starts the stand-in. Options: `secretKey` (the key the app must send),
 * `webhookSecret` and `accountsWebhookSecret` (what events are signed with),
 * `balance` (the platform's available balance per currency, minor units;
 * default plenty of EUR and USD).
 */
export async function startStripeConnect({
	secretKey = 'sk_test_loopback_connect',
	webhookSecret = 'whsec_loopback_snapshot_events',
	accountsWebhookSecret = 'whsec_loopback_thin_events',
	balance = { eur: 100_000_000, usd: 100_000_000 },
} = {}) {
	/** account id -> the v2 account (all parts; `include` picks what is answered) */
	const accounts = new Map()
	/** transfer id -> transfer */
	const transfers = new Map()
	/** idempotency key -> { fingerprint, status, body } */
	const idempotent = new Map()
	/** Every request: method, path, idempotency key, parsed body. */
	const requests = []
	/** path prefix -> how many more answers are a 500 (an outage) */
	const outages = new Map()
	const available = { ...balance }
	const signer = new Stripe('sk_test_signer')

	const server = createServer((req, res) => {
		handle(req, res).catch((error) => {
			if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
			res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }))
		})
	})

	async function handle(req, res) {
		const url = new URL(req.url ?? '/', 'http://loopback')
		const raw = await readBody(req, 256 * 1024)
		const v2 = url.pathname.startsWith('/v2/')
		const key = req.headers['idempotency-key']
		const body = req.method === 'POST' ? (v2 ? (raw ? JSON.parse(raw) : {}) : formBody(raw)) : null
		requests.push({ method: req.method, path: url.pathname, query: url.search, idempotencyKey: key ?? null, body })

		if (req.headers.authorization !== `Bearer ${secretKey}`) {
			return json(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } })
		}
		if (v2 && req.headers['content-type'] && req.method === 'POST' && !String(req.headers['content-type']).startsWith('application/json')) {
			return json(res, 400, { error: { type: 'invalid_request_error', message: 'v2 takes JSON bodies' } })
		}
		for (const [prefix, left] of outages) {
			if (url.pathname.startsWith(prefix) && left > 0) {
				outages.set(prefix, left - 1)
				// Stripe's "do not retry" header: the SDK gives up at once, as after its last retry.
				res.setHeader('stripe-should-retry', 'false')
				return json(res, 500, { error: { type: 'api_error', message: 'An unknown error occurred' } })
			}
		}
		if (req.method === 'POST') {
			if (!key) return json(res, 400, { error: { type: 'invalid_request_error', message: 'An Idempotency-Key is required here' } })
			const fingerprint = createHash('sha256').update(`${req.method} ${url.pathname} ${raw}`).digest('hex')
			const earlier = idempotent.get(key)
			if (earlier) {
				if (earlier.fingerprint !== fingerprint) {
					return json(res, 400, {
						error: { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with (${key})` },
					})
				}
				res.setHeader('idempotent-replayed', 'true')
				return json(res, earlier.status, earlier.body)
			}
			const [status, answer] = post(url.pathname, body)
			// Stripe keeps the first answer once the request started executing; a request
			// refused for its parameters alone (no error code) is not kept.
			if (status === 200 || answer.error?.code) idempotent.set(key, { fingerprint, status, body: answer })
			return json(res, status, answer)
		}
		if (req.method === 'GET') {
			const [status, answer] = get(url.pathname, url.searchParams)
			return json(res, status, answer)
		}
		return json(res, 405, { error: { type: 'invalid_request_error', message: 'method not allowed' } })
	}

	function post(path, body) {
		if (path === '/v2/core/accounts') return createAccount(body)
		if (path === '/v2/core/account_links') return createAccountLink(body)
		if (path === '/v1/transfers') return createTransfer(body)
		return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (POST: ${path})` } }]
	}

	function get(path, query) {
		const account = /^\/v2\/core\/accounts\/([^/]+)$/.exec(path)
		if (account) {
			const found = accounts.get(decodeURIComponent(account[1]))
			if (!found) return [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such account' } }]
			return [200, view(found, includes(query))]
		}
		if (path === '/v1/transfers') {
			const group = query.get('transfer_group')
			const data = [...transfers.values()].filter((t) => !group || t.transfer_group === group).reverse()
			return [200, { object: 'list', url: '/v1/transfers', has_more: false, data: data.slice(0, Number(query.get('limit') ?? 10)) }]
		}
		return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (GET: ${path})` } }]
	}

	function includes(query) {
		return [...query.entries()].filter(([k]) => k === 'include' || /^include\[\d*\]$/.test(k)).map(([, v]) => v)
	}

	/** The v2 account as Stripe answers it: the optional parts only when asked for. */
	function view(account, include) {
		const { configuration, requirements, identity, ...always } = account
		return {
			...always,
			...(include.includes('configuration.recipient') ? { configuration: { recipient: configuration.recipient } } : {}),
			...(include.includes('requirements') ? { requirements } : {}),
			...(include.includes('identity') ? { identity } : {}),
		}
	}

	function invalid(message, param) {
		return [400, { error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } }]
	}

	function createAccount(body) {
		const requested = body?.configuration?.recipient?.capabilities?.stripe_balance?.stripe_transfers?.requested
		if (requested !== true) return invalid('Request configuration.recipient.capabilities.stripe_balance.stripe_transfers', 'configuration')
		if (body.configuration.merchant || body.configuration.customer) return invalid('Only the recipient configuration is expected here', 'configuration')
		const country = String(body?.identity?.country ?? '')
		if (!/^[a-z]{2}$/i.test(country)) return invalid('identity.country is required', 'identity.country')
		if (!body.contact_email) return invalid('contact_email is required for the recipient configuration', 'contact_email')
		if (body.dashboard && !['express', 'none', 'full'].includes(body.dashboard)) return invalid('Invalid dashboard', 'dashboard')
		const account = {
			id: id('acct'),
			object: 'v2.core.account',
			applied_configurations: ['recipient'],
			contact_email: body.contact_email,
			created: new Date().toISOString(),
			dashboard: body.dashboard ?? 'none',
			livemode: false,
			metadata: body.metadata ?? {},
			configuration: { recipient: { applied: true, capabilities: { stripe_balance: { stripe_transfers: capability('restricted', 'requirements_past_due') } } } },
			requirements: { entries: ONBOARDING_REQUIREMENTS.map((description) => entry(description, 'past_due')), summary: { minimum_deadline: { status: 'past_due' } } },
			identity: { country: country.toLowerCase() },
		}
		accounts.set(account.id, account)
		return [200, view(account, body.include ?? [])]
	}

	function createAccountLink(body) {
		const account = accounts.get(body?.account)
		if (!account) return [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such account', param: 'account' } }]
		const useCase = body.use_case
		if (useCase?.type !== 'account_onboarding') return invalid('use_case.type must be account_onboarding here', 'use_case.type')
		const onboarding = useCase.account_onboarding
		if (!Array.isArray(onboarding?.configurations) || !onboarding.configurations.includes('recipient')) {
			return invalid('use_case.account_onboarding.configurations must name recipient', 'use_case.account_onboarding.configurations')
		}
		for (const field of ['return_url', 'refresh_url']) {
			if (!/^https?:\/\//.test(String(onboarding[field] ?? ''))) return invalid(`use_case.account_onboarding.${field} is required`, field)
		}
		const now = Date.now()
		return [
			200,
			{
				object: 'v2.core.account_link',
				account: account.id,
				created: new Date(now).toISOString(),
				expires_at: new Date(now + 5 * 60_000).toISOString(),
				livemode: false,
				url: `https://connect.stripe.test/setup/${account.id}/${randomBytes(8).toString('hex')}`,
				use_case: useCase,
			},
		]
	}

	function createTransfer(body) {
		const amount = Number(body.amount)
		const currency = String(body.currency ?? '')
		if (!Number.isInteger(amount) || amount < 1) return invalid('Invalid integer: amount', 'amount')
		if (!/^[a-z]{3}$/.test(currency)) return invalid('Invalid currency', 'currency')
		const account = accounts.get(body.destination)
		if (!account) return [400, { error: { type: 'invalid_request_error', code: 'account_invalid', param: 'destination', message: 'No such destination' } }]
		if (account.configuration.recipient.capabilities.stripe_balance.stripe_transfers.status !== 'active') {
			return [
				400,
				{
					error: {
						type: 'invalid_request_error',
						code: 'insufficient_capabilities_for_transfer',
						param: 'destination',
						message: 'Your destination account needs to have at least one of the following capabilities enabled: stripe_balance.stripe_transfers',
					},
				},
			]
		}
		if ((available[currency] ?? 0) < amount) {
			return [400, { error: { type: 'invalid_request_error', code: 'balance_insufficient', message: 'You have insufficient available funds in your Stripe account' } }]
		}
		available[currency] -= amount
		const transfer = {
			id: id('tr'),
			object: 'transfer',
			amount,
			amount_reversed: 0,
			created: Math.floor(Date.now() / 1000),
			currency,
			description: body.description ?? null,
			destination: account.id,
			livemode: false,
			metadata: body.metadata ?? {},
			reversals: { object: 'list', data: [], has_more: false, url: '' },
			reversed: false,
			transfer_group: body.transfer_group ?? null,
		}
		transfers.set(transfer.id, transfer)
		return [200, transfer]
	}

	function sign(payload, secret) {
		return signer.webhooks.generateTestHeaderString({ payload, secret })
	}

	/** A v1 ("snapshot") event about `object`, and its Stripe-Signature header. */
	function snapshotEvent(type, object) {
		const payload = JSON.stringify({
			id: id('evt'),
			object: 'event',
			api_version: Stripe.API_VERSION ?? '2026-10-28.endive',
			created: Math.floor(Date.now() / 1000),
			livemode: false,
			pending_webhooks: 1,
			request: { id: null, idempotency_key: null },
			type,
			data: { object },
		})
		return { payload, signature: sign(payload, webhookSecret) }
	}

	/** A thin event (event destination, Accounts v2) about an account, and its signature. */
	function thinAccountEvent(type, accountId, secret = accountsWebhookSecret) {
		const payload = JSON.stringify({
			id: id('evt'),
			object: 'v2.core.event',
			type,
			created: new Date().toISOString(),
			livemode: false,
			related_object: { id: accountId, type: 'v2.core.account', url: `/v2/core/accounts/${accountId}` },
		})
		return { payload, signature: sign(payload, secret) }
	}

	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
	const url = `http://127.0.0.1:${server.address().port}`
	return {
		url,
		secretKey,
		webhookSecret,
		accountsWebhookSecret,
		/** The app's environment variables that point its Stripe SDK here. */
		env: { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_ACCOUNTS_WEBHOOK_SECRET: accountsWebhookSecret, STRIPE_API_URL: url },
		accounts,
		transfers,
		requests,
		available,
		/** The creator went through Stripe's onboarding: the capability is active, nothing is due. */
		completeOnboarding(accountId) {
			const account = accounts.get(accountId)
			account.configuration.recipient.capabilities.stripe_balance.stripe_transfers = capability('active')
			account.requirements = { entries: [] }
		},
		/** Stripe restricts the account (a status detail code such as rejected_fraud, and what it needs then). */
		restrict(accountId, code, due = []) {
			const account = accounts.get(accountId)
			account.configuration.recipient.capabilities.stripe_balance.stripe_transfers = capability(code.startsWith('rejected') ? 'rejected' : 'restricted', code)
			account.requirements = { entries: due.map((description) => entry(description, 'currently_due')) }
		},
		/** The operator reverses a transfer in the Dashboard: the transfer as transfer.reversed carries it. */
		reverse(transferId) {
			const transfer = transfers.get(transferId)
			transfer.amount_reversed = transfer.amount
			transfer.reversed = true
			available[transfer.currency] += transfer.amount
			return transfer
		},
		/** The next `times` calls under `pathPrefix` answer 500 (Stripe is down). */
		outage(pathPrefix, times = 1) {
			outages.set(pathPrefix, times)
		},
		snapshotEvent,
		thinAccountEvent,
		/** Forgets everything (accounts, transfers, keys, requests, outages) and refills the balance. */
		reset() {
			accounts.clear()
			transfers.clear()
			idempotent.clear()
			requests.length = 0
			outages.clear()
			for (const key of Object.keys(available)) delete available[key]
			Object.assign(available, balance)
		},
		close: () => new Promise((resolve) => server.close(() => resolve())),
	}
}

function capability(status, code) {
	return { status, status_details: code ? [{ code, resolution: code.startsWith('rejected') ? 'no_resolution' : 'provide_info' }] : [] }
}

function entry(description, deadline) {
	return {
		awaiting_action_from: 'user',
		description,
		errors: [],
		impact: { restricts_capabilities: [{ capability: 'stripe_balance.stripe_transfers', configuration: 'recipient', deadline: { status: deadline } }] },
		minimum_deadline: { status: deadline },
		requested_reasons: [{ code: 'routine_onboarding' }],
	}
}

/** A v1 form body (`a[b][0]=c`) as nested objects and arrays. */
function formBody(raw) {
	const out = {}
	for (const [key, value] of new URLSearchParams(raw)) {
		const path = key.split(/\[|\]\[|\]/).filter((part) => part !== '')
		let node = out
		path.forEach((part, i) => {
			if (i === path.length - 1) node[part] = value
			else node = node[part] ??= /^\d+$/.test(path[i + 1]) ? [] : {}
		})
	}
	return out
}

function json(res, status, body) {
	res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(8).toString('hex')}` })
	res.end(JSON.stringify(body))
}
