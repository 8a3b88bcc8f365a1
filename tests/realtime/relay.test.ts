import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { RealtimeClient, type RealtimeChannel } from '@supabase/realtime-js'
import { afterEach, beforeEach, expect, test } from 'vitest'
import WebSocket from 'ws'
import { asUser } from '#app/db/as-user.server'
import type { Database } from '#app/db/database.server'
import { publishDocumentVersions } from '#app/db/published-documents.server'
import { Busy, concurrency, createRelay, type Relay, type RelayOptions } from '#app/modules/realtime/relay.server'
import { sessionTopic, startBroadcaster, type SessionUpdate } from '#app/modules/realtime/broadcaster.server'
import { mintRealtimeToken, realtimeKey, verifyRealtimeToken } from '#app/modules/realtime/tokens.server'
import { LOCAL_API_KEY, realtimeOptions } from '#app/modules/realtime/use-live'
import { claimsFor, describeEachDatabase } from '#tests/support/databases'
import { liveSession, participant } from '#tests/support/dares'

/**
 * The local relay with the real client: realtime-js (no hand-written client)
 * joins private topics, is refused what the SQL policies refuse, receives the
 * session broadcaster's updates (coalesced: a burst of boosts is a few
 * updates, not one each), is cut off when its token expires or is swapped
 * for one that may not read the topic, and keeps its heartbeat.
 */

const ORIGIN = 'http://app.test'
const key = realtimeKey('a realtime test secret of at least 32 characters')

type Harness = { server: Server; relay: Relay; url: string; port: number; stop: () => Promise<void> }

async function startHarness(db: Database, port = 0, options: Pick<RelayOptions, 'trustProxy' | 'limits'> = {}): Promise<Harness> {
	const relay = createRelay({
		db,
		origin: ORIGIN,
		verify: (token) => verifyRealtimeToken(key, token),
		trustProxy: options.trustProxy,
		limits: { expiryCheckMs: 100, ...options.limits },
	})
	const updates = await startBroadcaster({
		db,
		publish: (topic, event, payload) => void relay.broadcast(topic, event, payload),
		wanted: () => new Set(relay.topics()),
		intervalMs: 100,
	})
	const server = createServer((_req, res) => res.writeHead(404).end())
	server.on('upgrade', (req, socket, head) => {
		if (!relay.handleUpgrade(req, socket, head)) socket.destroy()
	})
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
	const bound = (server.address() as AddressInfo).port
	return {
		server,
		relay,
		port: bound,
		url: `ws://127.0.0.1:${bound}/realtime/v1`,
		stop: async () => {
			await updates.stop()
			await relay.close()
			await new Promise<void>((resolve) => server.close(() => resolve()))
		},
	}
}

const clients: RealtimeClient[] = []

/** A client as the page makes one (app/modules/realtime/use-live.ts): the token in hand before the first join. */
async function client(h: Harness, token: () => Promise<string>, options: { heartbeatIntervalMs?: number } = {}) {
	const c = new RealtimeClient(h.url, { transport: WebSocket as never, accessToken: token, params: { apikey: LOCAL_API_KEY }, ...options })
	clients.push(c)
	await c.setAuth()
	return c
}

/** Subscribes and resolves with the first status other than a retry in flight, and the statuses seen. */
function join(c: RealtimeClient, topic: string, onUpdate?: (update: SessionUpdate) => void) {
	const statuses: string[] = []
	const channel: RealtimeChannel = c.channel(topic, { config: { private: true } })
	if (onUpdate) channel.on('broadcast', { event: 'update' }, (message) => onUpdate(message.payload as SessionUpdate))
	const first = new Promise<string>((resolve) => channel.subscribe((status) => (statuses.push(status), resolve(status))))
	return { channel, statuses, first }
}

async function until(check: () => boolean, ms = 5000) {
	const end = Date.now() + ms
	while (!check()) {
		if (Date.now() > end) throw new Error('timed out')
		await new Promise((resolve) => setTimeout(resolve, 20))
	}
}

describeEachDatabase('the realtime relay', (getDb) => {
	// Each test has a fresh database (describeEachDatabase), and its own relay on it.
	let h: Harness
	beforeEach(async () => {
		await publishDocumentVersions(getDb(), { terms_of_service: 'v1', creator_agreement: 'v1' })
		h = await startHarness(getDb())
	})
	afterEach(async () => {
		for (const c of clients.splice(0)) c.disconnect()
		await h.stop()
	})

	const anon = async () => (await mintRealtimeToken(key, null)).token
	const as = (userId: string) => async () => (await mintRealtimeToken(key, claimsFor(userId))).token

	test('a visitor joins a session topic and gets one complete update per batch, in order, after the boosts commit', async () => {
		const db = getDb()
		const session = await liveSession(db)
		const viewer = await participant(db, 2000)
		const updates: SessionUpdate[] = []
		const { first } = join(await client(h, anon), sessionTopic(session.id), (u) => updates.push(u))
		expect(await first).toBe('SUBSCRIBED')

		const dareId = await asUser(db, claimsFor(viewer), async (tx) => {
			const { rows } = await tx.query<{ id: string }>('select id from public.create_dare($1, $2, $3, $4)', ['Juggle three oranges', session.id, 0, randomUUID()])
			for (let i = 0; i < 20; i++) await tx.query('select public.boost_dare($1, $2, $3)', [rows[0]!.id, 50, randomUUID()])
			return rows[0]!.id
		})
		await until(() => updates.some((u) => (u.sessionData.dares ?? []).some((d) => d.id === dareId && d.pot === 1000)))
		// One transaction, one update: its marks are coalesced, not one message per boost.
		expect(updates.length).toBeLessThanOrEqual(2)
		expect(updates.map((u) => u.seq)).toEqual([...updates.map((u) => u.seq)].sort((a, b) => a - b))
		// What changed: the session's totals and the dare, written in that transaction, so whole (with its description).
		expect(updates.at(-1)!.updatedKeys).toEqual(['session', 'dares'])
		expect(updates.at(-1)!.sessionData.session).toEqual({ status: 'active', dareCount: 1, potTotal: 1000 })
		expect(updates.find((u) => u.sessionData.dares?.some((d) => d.id === dareId))!.sessionData.dares![0]!.description).toBe('Juggle three oranges')
	})

	test('a stream of boosts in separate transactions makes at most one update per interval, not one per boost', async () => {
		const db = getDb()
		const session = await liveSession(db)
		const viewer = await participant(db, 5000)
		const updates: Array<SessionUpdate & { at: number }> = []
		const { first } = join(await client(h, anon), sessionTopic(session.id), (u) => updates.push({ ...u, at: Date.now() }))
		expect(await first).toBe('SUBSCRIBED')
		const dareId = await asUser(db, claimsFor(viewer), async (tx) => {
			const { rows } = await tx.query<{ id: string }>('select id from public.create_dare($1, $2, $3, $4)', ['Whistle the anthem', session.id, 0, randomUUID()])
			return rows[0]!.id
		})
		await until(() => updates.length > 0)
		updates.length = 0
		const started = Date.now()
		for (let i = 0; i < 25; i++) {
			await asUser(db, claimsFor(viewer), (tx) => tx.query('select public.boost_dare($1, $2, $3)', [dareId, 10, randomUUID()]))
			await new Promise((resolve) => setTimeout(resolve, 15))
		}
		await until(() => updates.some((u) => (u.sessionData.dares ?? []).some((d) => d.id === dareId && d.pot === 250)))
		// The harness publishes a topic at most every 100 ms: one update per interval, not one per boost.
		expect(updates.length).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / 100) + 1)
		expect(updates.length).toBeLessThan(25)
		for (let i = 1; i < updates.length; i++) expect(updates[i]!.at - updates[i - 1]!.at).toBeGreaterThanOrEqual(90)
	})

	test('refused: another user’s wallet, a wallet as a visitor, a public channel, a forged or missing token', async () => {
		const db = getDb()
		const alice = await participant(db)
		const bob = await participant(db)
		expect(await join(await client(h, as(alice)), `wallets_${alice}`).first).toBe('SUBSCRIBED')
		expect(await join(await client(h, as(bob)), `wallets_${alice}`).first).toBe('CHANNEL_ERROR')
		expect(await join(await client(h, anon), `wallets_${alice}`).first).toBe('CHANNEL_ERROR')
		const open = (await client(h, anon)).channel(`wallets_${alice}`, { config: { private: false } })
		expect(await new Promise((resolve) => open.subscribe(resolve))).toBe('CHANNEL_ERROR')
		const forged = (await mintRealtimeToken(realtimeKey('another secret, another deployment, 32+ chars'), claimsFor(alice))).token
		expect(await join(await client(h, async () => forged), `wallets_${alice}`).first).toBe('CHANNEL_ERROR')
		// A topic naming no session is no topic.
		expect(await join(await client(h, anon), sessionTopic(randomUUID())).first).toBe('CHANNEL_ERROR')
	})

	test("another site's page cannot open the socket; an unknown protocol version neither", async () => {
		const status = (url: string, origin?: string) =>
			new Promise<number>((resolve) => {
				const ws = new WebSocket(url, origin ? { origin } : {})
				ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
				ws.on('open', () => (ws.close(), resolve(101)))
				ws.on('error', () => {})
			})
		expect(await status(`${h.url}/websocket?vsn=2.0.0`, 'https://evil.example')).toBe(403)
		expect(await status(`${h.url}/websocket?vsn=9.9.9`, ORIGIN)).toBe(400)
		expect(await status(`${h.url}/websocket?vsn=2.0.0`, ORIGIN)).toBe(101)
	})

	test('a hostile client: a malformed frame, an oversized frame and a 21st socket are refused', async () => {
		const url = `${h.url}/websocket?vsn=2.0.0`
		const closeCode = (send: (ws: WebSocket) => void) =>
			new Promise<number>((resolve) => {
				const ws = new WebSocket(url)
				ws.on('open', () => send(ws))
				ws.on('close', (code) => resolve(code))
				ws.on('error', () => {})
			})
		expect(await closeCode((ws) => ws.send('not json'))).toBe(1007)
		expect(await closeCode((ws) => ws.send(JSON.stringify([null, '1', 'realtime:x', 'phx_join', { pad: 'x'.repeat(70 * 1024) }])))).toBe(1009)

		const open: WebSocket[] = []
		try {
			for (let i = 0; i < 20; i++) {
				const ws = new WebSocket(url)
				open.push(ws)
				await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)))
			}
			const refused = await new Promise<number>((resolve) => {
				const ws = new WebSocket(url)
				ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
				ws.on('open', () => (ws.close(), resolve(101)))
				ws.on('error', () => {})
			})
			expect(refused).toBe(429)
		} finally {
			for (const ws of open) ws.close()
		}
	})

	test('the real client over vsn 1.0.0 (objects), and with no token of its own (the apikey parameter is its token)', async () => {
		const db = getDb()
		const session = await liveSession(db)
		const updates: SessionUpdate[] = []
		const v1 = new RealtimeClient(h.url, { transport: WebSocket as never, accessToken: anon, params: { apikey: LOCAL_API_KEY }, vsn: '1.0.0' })
		clients.push(v1)
		await v1.setAuth()
		expect(await join(v1, sessionTopic(session.id), (u) => updates.push(u)).first).toBe('SUBSCRIBED')
		h.relay.broadcast(sessionTopic(session.id), 'update', { seq: 1 })
		await until(() => updates.length === 1)
		// No access token: realtime-js joins with none, and the relay reads the apikey parameter as the token (as Supabase reads its anon key).
		const keyOnly = new RealtimeClient(h.url, { transport: WebSocket as never, params: { apikey: await anon() } })
		clients.push(keyOnly)
		expect(await join(keyOnly, sessionTopic(session.id)).first).toBe('SUBSCRIBED')
		const wrongKey = new RealtimeClient(h.url, { transport: WebSocket as never, params: { apikey: LOCAL_API_KEY } })
		clients.push(wrongKey)
		expect(await join(wrongKey, sessionTopic(session.id)).first).toBe('CHANNEL_ERROR')
	})

	test('a burst of joins on one socket counts against its channel limit while they are authorised; a leave meanwhile cancels the join', async () => {
		const db = getDb()
		const limited = await startHarness(db, 0, { limits: { channelsPerSocket: 3 } })
		try {
			const token = await anon()
			const ws = new WebSocket(`${limited.url}/websocket?vsn=2.0.0`)
			const replies: Array<[string, string, string]> = []
			const broadcasts: string[] = []
			ws.on('message', (data) => {
				const [, ref, topic, event, payload] = JSON.parse(String(data)) as [string, string, string, string, { status?: string; response?: { reason?: string } }]
				if (event === 'phx_reply') replies.push([ref, payload.status ?? '', payload.response?.reason ?? ''])
				if (event === 'broadcast') broadcasts.push(topic)
			})
			await new Promise((resolve) => ws.once('open', resolve))
			const frame = (ref: string, topic: string, event: string, payload: object = {}) => ws.send(JSON.stringify([ref, ref, `realtime:${topic}`, event, payload]))
			const joinFrame = (ref: string, topic: string) => frame(ref, topic, 'phx_join', { config: { private: true }, access_token: token })
			// Five joins sent at once: the first three are being authorised when the last two arrive (topics of no session: refused after).
			for (let i = 1; i <= 5; i++) joinFrame(String(i), sessionTopic(randomUUID()))
			await until(() => replies.length === 5)
			expect(replies.filter(([, , reason]) => reason === 'Too many channels').map(([ref]) => ref)).toEqual(['4', '5'])
			expect(replies.filter(([, , reason]) => reason.startsWith('Unauthorized'))).toHaveLength(3)

			// A join of a topic it may read, left before its authorisation is over: never subscribed, gets no broadcast.
			const session = await liveSession(db)
			joinFrame('6', sessionTopic(session.id))
			frame('7', sessionTopic(session.id), 'phx_leave')
			await until(() => replies.some(([ref]) => ref === '6'))
			expect(replies.filter(([ref]) => ref === '6' || ref === '7').map(([ref, status]) => [ref, status])).toEqual([
				['7', 'ok'],
				['6', 'ok'],
			])
			expect(limited.relay.topics()).not.toContain(sessionTopic(session.id))
			expect(limited.relay.broadcast(sessionTopic(session.id), 'update', {})).toBe(0)
			// Joined and not left, it is.
			joinFrame('8', sessionTopic(session.id))
			await until(() => replies.some(([ref]) => ref === '8'))
			expect(replies.find(([ref]) => ref === '8')![1]).toBe('ok')
			expect(limited.relay.broadcast(sessionTopic(session.id), 'update', {})).toBe(1)
			await until(() => broadcasts.length === 1)
			ws.close()
		} finally {
			await limited.stop()
		}
	})

	test("a join flood: past its socket's rate and then its client's, a join is refused before any authorisation", async () => {
		const db = getDb()
		const limited = await startHarness(db, 0, {
			// Hardly any refill during the test: the bursts alone decide.
			limits: { joinsPerSocket: { burst: 3, perSecond: 0.01 }, joinsPerClient: { burst: 5, perSecond: 0.01 } },
		})
		try {
			const token = await anon()
			const socket = async () => {
				const ws = new WebSocket(`${limited.url}/websocket?vsn=2.0.0`)
				const replies = new Map<string, string>()
				ws.on('message', (data) => {
					const [, ref, , event, payload] = JSON.parse(String(data)) as [string, string, string, string, { status?: string; response?: { reason?: string } }]
					if (event === 'phx_reply') replies.set(ref, payload.status === 'ok' ? 'ok' : (payload.response?.reason ?? ''))
				})
				await new Promise((resolve) => ws.once('open', resolve))
				const joinAll = async (refs: string[], topic: () => string) => {
					for (const ref of refs) ws.send(JSON.stringify([ref, ref, `realtime:${topic()}`, 'phx_join', { config: { private: true }, access_token: token }]))
					await until(() => refs.every((ref) => replies.has(ref)))
					return refs.map((ref) => replies.get(ref)!)
				}
				return { ws, joinAll }
			}
			const session = await liveSession(db)
			// One at a time (each waits for its answer): the socket's burst of 3, then refused.
			const first = await socket()
			const answers: string[] = []
			for (const ref of ['1', '2', '3', '4']) answers.push(...(await first.joinAll([ref], () => sessionTopic(session.id))))
			expect(answers).toEqual(['ok', 'ok', 'ok', 'Too many joins: wait a moment'])
			// Another socket of the same client: what is left of the client's burst (5 - 3), then refused.
			const second = await socket()
			expect(await second.joinAll(['1'], () => sessionTopic(session.id))).toEqual(['ok'])
			expect(await second.joinAll(['2'], () => sessionTopic(randomUUID()))).toEqual([expect.stringMatching(/^Unauthorized/)])
			expect(await second.joinAll(['3'], () => sessionTopic(session.id))).toEqual(['Too many joins: wait a moment'])
			first.ws.close()
			second.ws.close()
		} finally {
			await limited.stop()
		}
	})

	test('behind TRUST_PROXY proxies the socket limit is per forwarded client, not per proxy; a client that does not read is cut off', async () => {
		const db = getDb()
		const proxied = await startHarness(db, 0, { trustProxy: 1, limits: { socketsPerClient: 2, maxBufferedBytes: 256 * 1024 } })
		const open: WebSocket[] = []
		try {
			const url = `${proxied.url}/websocket?vsn=2.0.0`
			const connect = (forwardedFor: string) =>
				new Promise<WebSocket | number>((resolve) => {
					const ws = new WebSocket(url, { headers: { 'x-forwarded-for': forwardedFor } })
					ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
					ws.on('open', () => (open.push(ws), resolve(ws)))
					ws.on('error', () => {})
				})
			// The proxy (127.0.0.1) appends the client's address; what the client wrote before it proves nothing.
			expect(await connect('203.0.113.7')).toBeInstanceOf(WebSocket)
			expect(await connect('198.51.100.1, 203.0.113.7')).toBeInstanceOf(WebSocket)
			expect(await connect('203.0.113.7')).toBe(429)
			expect(await connect('203.0.113.8')).toBeInstanceOf(WebSocket)

			// A subscriber that stops reading: what piles up for it is bounded, then it is cut off.
			const session = await liveSession(db)
			const slow = open[2]!
			const joined = new Promise((resolve) => slow.once('message', resolve))
			slow.send(JSON.stringify(['1', '1', `realtime:${sessionTopic(session.id)}`, 'phx_join', { config: { private: true }, access_token: await anon() }]))
			await joined
			const closed = new Promise((resolve) => slow.once('close', resolve))
			;(slow as unknown as { _socket: { pause(): void } })._socket.pause()
			const payload = { pad: 'x'.repeat(64 * 1024) }
			let sent = 1
			for (let i = 0; i < 2000 && sent > 0; i++) {
				sent = proxied.relay.broadcast(sessionTopic(session.id), 'update', payload)
				await new Promise((resolve) => setImmediate(resolve))
			}
			expect(sent, 'the relay stopped sending to the subscriber that does not read').toBe(0)
			;(slow as unknown as { _socket: { resume(): void } })._socket.resume()
			await closed
		} finally {
			for (const ws of open) ws.terminate()
			await proxied.stop()
		}
	})

	test('cut off when the token expires, and when a new token may not read the topic', async () => {
		const db = getDb()
		const alice = await participant(db)
		const bob = await participant(db)
		// A token with two seconds left.
		const short = (await mintRealtimeToken(key, claimsFor(alice), Date.now() - 598_000)).token
		const expiring = join(await client(h, async () => short), `wallets_${alice}`)
		expect(await expiring.first).toBe('SUBSCRIBED')
		await until(() => expiring.statuses.length > 1)
		expect(expiring.statuses[1]).not.toBe('SUBSCRIBED')

		let token = await as(alice)()
		const c = await client(h, async () => token)
		const swapped = join(c, `wallets_${alice}`)
		expect(await swapped.first).toBe('SUBSCRIBED')
		token = await as(bob)()
		await c.setAuth()
		await until(() => swapped.statuses.length > 1)
		expect(swapped.statuses[1]).not.toBe('SUBSCRIBED')
	})

	test('two app instances on one database: a boost committed anywhere reaches the subscribers of the other', async () => {
		const db = getDb()
		const other = await startHarness(db)
		try {
			const session = await liveSession(db)
			const viewer = await participant(db, 1000)
			const seen: SessionUpdate[] = []
			expect(await join(await client(other, anon), sessionTopic(session.id), (u) => seen.push(u)).first).toBe('SUBSCRIBED')
			await asUser(db, claimsFor(viewer), (tx) => tx.query('select public.create_dare($1, $2, $3, $4)', ['Wear a hat', session.id, 0, randomUUID()]))
			await until(() => seen.some((u) => (u.sessionData.dares ?? []).length === 1))
		} finally {
			for (const c of clients.splice(0)) c.disconnect()
			await other.stop()
		}
	})

	test('after a relay restart the client joins again by itself and hears what follows', async () => {
		const db = getDb()
		const session = await liveSession(db)
		const viewer = await participant(db, 1000)
		const seen: SessionUpdate[] = []
		const joined = join(await client(h, anon), sessionTopic(session.id), (u) => seen.push(u))
		expect(await joined.first).toBe('SUBSCRIBED')
		const port = h.port
		await h.stop()
		h = await startHarness(db, port)
		await until(() => joined.statuses.filter((status) => status === 'SUBSCRIBED').length >= 2, 15_000)
		await asUser(db, claimsFor(viewer), (tx) => tx.query('select public.create_dare($1, $2, $3, $4)', ['Wear a hat', session.id, 0, randomUUID()]))
		await until(() => seen.length > 0)
	}, 30_000)

	test('the heartbeat is answered: the socket stays up across several beats', async () => {
		const c = await client(h, anon, { heartbeatIntervalMs: 200 })
		const session = await liveSession(getDb())
		const beats: string[] = []
		c.onHeartbeat((status) => beats.push(status))
		expect(await join(c, sessionTopic(session.id)).first).toBe('SUBSCRIBED')
		await until(() => beats.filter((b) => b === 'ok').length >= 3)
		expect(beats).not.toContain('timeout')
		expect(c.isConnected()).toBe(true)
	})
})

test("the browser's client keeps realtime-js's defaults: heartbeat 25 s, timeout 10 s, reconnect after 1, 2, 5, 10 s, a push buffer of 100", () => {
	// The page's options (use-live.ts), with Node's WebSocket: nothing else differs from the browser's client.
	const c = new RealtimeClient('ws://127.0.0.1:1/realtime/v1', { ...realtimeOptions(async () => null, LOCAL_API_KEY), transport: WebSocket as never })
	try {
		expect(c.heartbeatIntervalMs).toBe(25_000)
		expect(c.timeout).toBe(10_000)
		expect([1, 2, 3, 4, 5].map((tries) => c.reconnectAfterMs(tries))).toEqual([1000, 2000, 5000, 10_000, 10_000])
		// Pushes while not joined wait in the channel's buffer, the oldest dropped past 100.
		const channel = c.channel('buffered', { config: { private: true } })
		channel.subscribe()
		const adapter = (channel as unknown as { channelAdapter: { push(event: string, payload: object): void; channel: { pushBuffer: unknown[] } } }).channelAdapter
		for (let i = 0; i < 150; i++) adapter.push('broadcast', { i })
		expect(adapter.channel.pushBuffer).toHaveLength(100)
	} finally {
		c.disconnect()
	}
})

test('the authorisations a relay runs at once: so many run, so many wait, the rest are told to come back at once', async () => {
	const run = concurrency(2, 1)
	const gates: Array<() => void> = []
	const task = () => new Promise<string>((resolve) => gates.push(() => resolve('done')))
	const outcomes = [run(task), run(task), run(task), run(task)].map((p) => p.then((v) => v, (e: unknown) => (e instanceof Busy ? 'busy' : 'error')))
	expect(await outcomes[3]).toBe('busy')
	expect(gates).toHaveLength(2)
	gates.shift()!()
	expect(await outcomes[0]).toBe('done')
	// The waiting one took the freed place.
	await until(() => gates.length === 2)
	for (const open of gates.splice(0)) open()
	expect(await Promise.all(outcomes.slice(1, 3))).toEqual(['done', 'done'])
})
