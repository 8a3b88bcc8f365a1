/**
 * The session page of a session with 200 dares, server-rendered for a
 * visitor, against a Postgres server: its p99 at a fixed 200 requests/s and
 * its throughput at 20 connections, next to pages of the same process in the
 * same run: `/robots.txt` (a bare React Router resource route: routing,
 * middleware and a loader, no React render), `/en/terms` (a static page),
 * home and `/healthz` (Express alone).
 *
 *   npm run build && BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:session-page
 *
 * Target: p99 under 200 ms at 200 requests/s, and at least half the bare
 * route's throughput. A visitor's page is rendered once and shared until the
 * session changes (docs/decisions/040-shared-session-page.md), as are home
 * and the legal pages for a second (041-shared-pages.md); each page rendered
 * for each request (as for a signed-in viewer: any other cookie skips the
 * shared copy) is measured beside it.
 */
import { randomUUID } from 'node:crypto'
import autocannon from 'autocannon'
import { createDatabase } from '../app/db/database.server'
import { startPostgresServer, writeDares } from './support'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)

async function main() {
	const server = await startPostgresServer()
	const db = await createDatabase({ url: server.databaseUrl, poolSize: 2 })
	try {
		const users: string[] = []
		// The creator and 40 authors: five dares each (an author's limit a minute).
		for (let i = 0; i < 41; i++) {
			const id = randomUUID()
			await db.query(`insert into auth.users (id, aud, role, email) values ($1, 'authenticated', 'authenticated', $2)`, [id, `u${i}-${id}@bench.local`])
			await db.query('insert into public.profiles (id, username) values ($1, $2)', [id, `bench${id.slice(0, 8)}`])
			await db.query(
				`insert into public.consents (user_id, kind, version) values ($1, 'terms_of_service', app_private.current_document_version('terms_of_service'))`,
				[id],
			)
			users.push(id)
		}
		const { rows } = await db.query<{ id: string }>(
			`insert into public.sessions (creator_id, title, platform, channel, max_dares_per_user, max_free_dares_per_user)
			 values ($1, 'Two hundred dares', 'twitch', $2, 100, 100) returning id`,
			[users[0], `bench_${users[0]!.slice(0, 8)}`],
		)
		const sessionId = rows[0]!.id
		const authors = users.slice(1)
		await writeDares(db, sessionId, 200, async () => authors.shift()!, (i) => `Dare number ${i}: sing the chorus backwards`)
		const path = `/en/session/${sessionId}`
		const page = await fetch(`${server.base}${path}`)
		const html = await page.text()
		console.log(`session page: ${page.status}, ${(html.length / 1024).toFixed(0)} KB of HTML, ${(html.match(/class="dare dare--/g) ?? []).length} dares rendered\n`)

		const fixed = await autocannon({ url: `${server.base}${path}`, connections: 20, overallRate: 200, duration: SECONDS })
		console.log(`session page at a fixed 200 requests/s: ${fixed.requests.average} requests/s served, latency p50 ${fixed.latency.p50} ms  p99 ${fixed.latency.p99} ms  (non-2xx ${fixed.non2xx}, errors ${fixed.errors})\n`)

		console.log(`throughput at 20 connections, ${SECONDS} s each:`)
		const rates: Record<string, number> = {}
		for (const [name, p, cookie] of [
			['session page (200 dares)', path, null],
			['  the same, rendered each time', path, 'bench=1'],
			['bare route /robots.txt', '/robots.txt', null],
			['static page /en/terms', '/en/terms', null],
			['  the same, rendered each time', '/en/terms', 'bench=1'],
			['home /en', '/en', null],
			['  the same, rendered each time', '/en', 'bench=1'],
			['/healthz (Express only)', '/healthz', null],
		] as const) {
			const r = await autocannon({ url: `${server.base}${p}`, connections: 20, duration: SECONDS, ...(cookie ? { headers: { cookie } } : {}) })
			rates[name] = r.requests.average
			console.log(`  ${name.padEnd(26)} ${String(r.requests.average).padStart(7)} requests/s   p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  (non-2xx ${r.non2xx})`)
		}
		const ratio = rates['session page (200 dares)']! / rates['bare route /robots.txt']!
		console.log(`\nsession page / bare route: ${(ratio * 100).toFixed(0)} %`)
	} finally {
		await db.close()
		await server.stop()
	}
}

await main()
