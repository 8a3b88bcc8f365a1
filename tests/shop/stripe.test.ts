import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import type { AppServices } from '#app/context.server'
import type { Database } from '#app/db/database.server'
import { parseEnv } from '#app/env.server'
import { buyPack, handleStripeWebhook } from '#app/modules/shop/service.server'
import type { Platform } from '#app/platform/types'
import { claimsFor, createAuthUser, describeEachDatabase } from '#tests/support/databases'
import { ledgerProblems } from '#tests/support/wallet'
import { OPERATOR } from '#tests/support/env'

const WEBHOOK_SECRET = 'whsec_test_secret_for_the_loopback_stand_in'

/**
 * A loopback stand-in for Stripe's Checkout endpoint (POST
 * /v1/checkout/sessions), with Stripe's idempotency: the same
 * Idempotency-Key answers the same session.
 * why: Stripe lives outside this machine; the SDK itself is the real one.
 */
class FakeStripe {
	server: Server = createServer((req, res) => {
		let body = ''
		req.on('data', (chunk: Buffer) => (body += chunk.toString()))
		req.on('end', () => {
			this.requests.push({ method: req.method ?? '', path: req.url ?? '', body, idempotencyKey: String(req.headers['idempotency-key'] ?? '') })
			if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
				const key = String(req.headers['idempotency-key'] ?? randomUUID())
				let session = this.sessions.get(key)
				if (!session) {
					const params = new URLSearchParams(body)
					const id = `cs_test_${randomUUID().replaceAll('-', '')}`
					session = {
						id,
						object: 'checkout.session',
						url: `https://checkout.stripe.test/c/pay/${id}`,
						client_reference_id: params.get('client_reference_id'),
						amount_total: Number(params.get('line_items[0][price_data][unit_amount]')),
						currency: params.get('line_items[0][price_data][currency]'),
						success_url: params.get('success_url'),
						cancel_url: params.get('cancel_url'),
						locale: params.get('locale'),
						payment_status: 'unpaid',
						status: 'open',
					}
					this.sessions.set(key, session)
				}
				res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${randomUUID()}` })
				res.end(JSON.stringify(session))
				return
			}
			res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not here' } }))
		})
	})
	requests: Array<{ method: string; path: string; body: string; idempotencyKey: string }> = []
	sessions = new Map<string, Record<string, unknown> & { id: string; url: string }>()

	async listen(): Promise<string> {
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
		return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
	}
	close(): Promise<void> {
		return new Promise((resolve) => this.server.close(() => resolve()))
	}
}

const fake = new FakeStripe()
let apiUrl = ''
beforeAll(async () => {
	apiUrl = await fake.listen()
})
afterAll(async () => {
	await fake.close()
})

function servicesFor(db: Database): AppServices {
	const env = parseEnv({
		STRIPE_SECRET_KEY: 'sk_test_loopback',
		STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
		STRIPE_API_URL: apiUrl,
		APP_URL: 'https://dares.example',
		...OPERATOR,
		DATABASE_URL: 'postgres://unused@127.0.0.1/unused',
	})
	// The shop uses nothing of the platform (the buyer's balance reaches their pages from the ledger's mark).
	const platform = {} as Platform
	return { env, db, platform, background: { stop: async () => {} } }
}

const signer = new Stripe('sk_test_signer')

function completedEvent(sessionId: string, eventId = `evt_${randomUUID().replaceAll('-', '')}`) {
	return JSON.stringify({
		id: eventId,
		object: 'event',
		type: 'checkout.session.completed',
		api_version: '2025-01-01',
		created: Math.floor(Date.now() / 1000),
		data: { object: { id: sessionId, object: 'checkout.session', payment_status: 'paid', status: 'complete' } },
	})
}

function sign(payload: string, secret = WEBHOOK_SECRET): string {
	return signer.webhooks.generateTestHeaderString({ payload, secret })
}

async function balanceOf(db: Database, userId: string): Promise<number> {
	const { rows } = await db.query<{ balance: number }>('select balance from public.wallets where id = $1', [userId])
	return rows[0]!.balance
}

async function startCheckout(services: AppServices, userId: string, key = randomUUID()) {
	const outcome = await buyPack(services, { claims: claimsFor(userId), userId, email: 'ada@example.com' }, {
		packId: 'coins-1100',
		idempotencyKey: key,
		locale: 'de',
		returnPath: '/de/twitch/mia_plays',
	})
	if (outcome.kind !== 'checkout') throw new Error('expected a Checkout session')
	const session = [...fake.sessions.values()].find((s) => s.url === outcome.url)!
	return { outcome, session }
}

describeEachDatabase('Stripe Checkout', (getDb) => {
	test('buying opens a Checkout session at the configured price and credits nothing yet', async () => {
		const db = getDb()
		const services = servicesFor(db)
		const user = await createAuthUser(db)
		const { session } = await startCheckout(services, user)
		expect(session).toMatchObject({
			amount_total: 999,
			currency: 'eur',
			locale: 'de',
		})
		expect(String(session.success_url)).toMatch(/^https:\/\/dares\.example\/de\/shop\/success\?purchase=[0-9a-f-]{36}&returnPath=%2Fde%2Ftwitch%2Fmia_plays$/)
		expect(await balanceOf(db, user)).toBe(0)
		const { rows } = await db.query('select status, checkout_session_id from ledger.purchases')
		expect(rows).toEqual([{ status: 'pending', checkout_session_id: session.id }])
	})

	test('the same form sent twice opens the same Checkout session', async () => {
		const db = getDb()
		const services = servicesFor(db)
		const user = await createAuthUser(db)
		const key = randomUUID()
		const first = await startCheckout(services, user, key)
		const second = await startCheckout(services, user, key)
		expect(second.outcome.url).toBe(first.outcome.url)
		expect((await db.query('select id from ledger.purchases')).rows).toHaveLength(1)
	})

	test('a valid checkout.session.completed credits once; a replay credits nothing more', async () => {
		const db = getDb()
		const services = servicesFor(db)
		const user = await createAuthUser(db)
		const { session } = await startCheckout(services, user)
		const payload = completedEvent(session.id)
		const first = await handleStripeWebhook(services, payload, sign(payload))
		expect(first).toEqual({ status: 200, body: { received: true } })
		expect(await balanceOf(db, user)).toBe(1100)

		// Stripe retries the same event, and sends a second event for the session.
		expect(await handleStripeWebhook(services, payload, sign(payload))).toEqual({ status: 200, body: { received: true } })
		const another = completedEvent(session.id)
		expect((await handleStripeWebhook(services, another, sign(another))).status).toBe(200)
		expect(await balanceOf(db, user)).toBe(1100)

		const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from ledger.transfers where kind = 'purchase'`)
		expect(rows[0]?.n).toBe(1)
		expect(await ledgerProblems(db)).toEqual([])
		// The owner's open pages hear about it from the mark the credit committed with (the realtime broadcaster).
		const { rows: marks } = await db.query<{ n: number }>('select count(*)::int as n from app_private.realtime_marks where topic = $1', [`wallets_${user}`])
		expect(marks[0]!.n).toBeGreaterThan(0)
	})

	test('a bad signature is refused with 400 and changes nothing', async () => {
		const db = getDb()
		const services = servicesFor(db)
		const user = await createAuthUser(db)
		const { session } = await startCheckout(services, user)
		const payload = completedEvent(session.id)
		const attempts: Array<[string, string | null]> = [
			[payload, sign(payload, 'whsec_someone_else')],
			[payload, null],
			[payload, 't=1,v1=deadbeef'],
			// Signed, then altered: the signature covers the exact bytes.
			[payload.replace('"paid"', '"paid" '), sign(payload)],
			[payload, signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 })],
		]
		for (const [body, signature] of attempts) {
			expect(await handleStripeWebhook(services, body, signature)).toEqual({
				status: 400,
				body: { received: false, error: 'bad-signature' },
			})
		}
		expect(await balanceOf(db, user)).toBe(0)
		expect((await db.query(`select status from ledger.purchases`)).rows).toEqual([{ status: 'pending' }])
	})

	test('an event for an unknown session is logged and acknowledged', async () => {
		const db = getDb()
		const services = servicesFor(db)
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
		const payload = completedEvent('cs_test_nobody_knows_this_one')
		expect(await handleStripeWebhook(services, payload, sign(payload))).toEqual({ status: 200, body: { received: true } })
		expect(warn).toHaveBeenCalledWith(expect.stringContaining('unknown Checkout session cs_test_nobody_knows_this_one'))
		expect((await db.query('select * from ledger.transfers')).rows).toEqual([])
	})

	test('an unpaid completion (a delayed payment method) credits nothing until it is paid', async () => {
		const db = getDb()
		const services = servicesFor(db)
		const user = await createAuthUser(db)
		const { session } = await startCheckout(services, user)
		const unpaid = completedEvent(session.id).replace('"paid"', '"unpaid"')
		expect((await handleStripeWebhook(services, unpaid, sign(unpaid))).status).toBe(200)
		expect(await balanceOf(db, user)).toBe(0)
		const paid = JSON.stringify({
			...JSON.parse(completedEvent(session.id)),
			type: 'checkout.session.async_payment_succeeded',
		})
		expect((await handleStripeWebhook(services, paid, sign(paid))).status).toBe(200)
		expect(await balanceOf(db, user)).toBe(1100)
	})
})
