/**
 * npm run chaos:money -- --ops N --connections C [--users U] [--pots P] [--max-seconds S] [--keep]
 *
 * Hammers the ledger on a Postgres server with random money operations from
 * C connections at once: purchases (test checkout, as the buyer), boosts
 * (wallet -> pot), refunds and payouts (pot -> wallet), replays of used
 * idempotency keys, and account deletions (forfeit). Then checks the books
 * with ledger.check() and counts negative balances. --max-seconds stops
 * issuing operations after S seconds (the report says how many ran). Both must be 0; the
 * script exits 1 otherwise, or on any error that is not an expected refusal
 * (error-insufficient-funds).
 *
 * DATABASE_URL names the server (a role that may create databases): the run
 * gets a fresh database, migrated, dropped at the end unless --keep. Not part
 * of npm test.
 */
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { createDatabase } from '../app/db/database.server'
import { migrate } from '../app/db/migrate.server'

const { values } = parseArgs({
	options: {
		ops: { type: 'string', default: '10000' },
		connections: { type: 'string', default: '8' },
		users: { type: 'string', default: '500' },
		pots: { type: 'string', default: '100' },
		keep: { type: 'boolean', default: false },
		'max-seconds': { type: 'string', default: '0' },
	},
})
const OPS = Number(values.ops)
const CONNECTIONS = Number(values.connections)
const USERS = Number(values.users)
const POTS = Number(values.pots)
const MAX_SECONDS = Number(values['max-seconds'])

const adminUrl = process.env.DATABASE_URL
if (!adminUrl) {
	console.error('chaos:money needs DATABASE_URL (a Postgres server; the run creates its own database there)')
	process.exit(2)
}

type Op = 'purchase' | 'boost' | 'refund' | 'replay' | 'delete'

interface Used {
	sql: string
}

const counts: Record<string, number> = {}
const count = (key: string) => void (counts[key] = (counts[key] ?? 0) + 1)

function pick<T>(items: readonly T[]): T {
	return items[Math.floor(Math.random() * items.length)]!
}

function chooseOp(): Op {
	const r = Math.random()
	if (r < 0.3) return 'purchase'
	if (r < 0.65) return 'boost'
	if (r < 0.88) return 'refund'
	if (r < 0.998) return 'replay'
	return 'delete'
}

async function main(): Promise<void> {
	const name = `chaos_money_${Date.now()}`
	const admin = new pg.Client({ connectionString: adminUrl })
	await admin.connect()
	await admin.query(`create database ${name}`)
	const url = new URL(adminUrl!)
	url.pathname = `/${name}`
	const db = await createDatabase({ url: url.toString(), poolSize: 2 })
	const users: string[] = []
	const pots: string[] = Array.from({ length: POTS }, () => randomUUID())
	const used: Used[] = []
	let failed = false
	try {
		await migrate(db, { platform: 'local' })
		for (let i = 0; i < USERS; i++) users.push(await newUser(db))
		console.log(`chaos:money: ${OPS} operations, ${CONNECTIONS} connections, ${USERS} users, ${POTS} pots, database ${name}`)

		let next = 0
		let done = 0
		const started = Date.now()
		let lastReport = started
		const worker = async () => {
			const client = new pg.Client({ connectionString: url.toString() })
			await client.connect()
			try {
				while (next < OPS && !(MAX_SECONDS > 0 && Date.now() - started > MAX_SECONDS * 1000)) {
					next++
					await runOp(client, chooseOp(), users, pots, used)
					done++
					if (Date.now() - lastReport > 30_000) {
						lastReport = Date.now()
						console.log(`  ${done} operations, ${((Date.now() - started) / 1000).toFixed(0)} s`)
					}
				}
			} finally {
				await client.end()
			}
		}
		await Promise.all(Array.from({ length: CONNECTIONS }, worker))
		const seconds = (Date.now() - started) / 1000

		const problems = await db.query('select * from ledger.check()')
		const negatives = await db.query<{ n: number }>(
			`select ((select count(*) from public.wallets where balance < 0)
			       + (select count(*) from ledger.accounts where kind <> 'world' and balance < 0))::int as n`,
		)
		const totals = await db.query<{ transfers: number; world: number }>(
			`select (select count(*) from ledger.transfers)::int as transfers,
			        (select balance from ledger.accounts where kind = 'world') as world`,
		)
		const drift = problems.rows.length
		const negative = negatives.rows[0]!.n
		console.log(`operations: ${done}${done < OPS ? ` (stopped by --max-seconds before ${OPS})` : ''}`)
		console.log(`seconds: ${seconds.toFixed(1)} (${Math.round(done / seconds)} per second)`)
		console.log(`transfers recorded: ${totals.rows[0]!.transfers}; coins bought from the outside world: ${-totals.rows[0]!.world}`)
		console.log(`outcomes: ${JSON.stringify(counts)}`)
		console.log(`drift: ${drift}`)
		console.log(`negative balances: ${negative}`)
		for (const row of problems.rows) console.log(`  DRIFT ${JSON.stringify(row)}`)
		const unexpected = Object.entries(counts).filter(([k]) => k.startsWith('unexpected'))
		failed = drift !== 0 || negative !== 0 || unexpected.length > 0
	} finally {
		await db.close()
		if (!values.keep) await admin.query(`drop database if exists ${name} with (force)`)
		await admin.end()
	}
	process.exitCode = failed ? 1 : 0
}

async function newUser(db: { query: (sql: string, params?: unknown[]) => Promise<{ rows: unknown[] }> }): Promise<string> {
	const id = randomUUID()
	await db.query(`insert into auth.users (id, aud, role, email) values ($1, 'authenticated', 'authenticated', $2)`, [
		id,
		`${id}@chaos.local`,
	])
	return id
}

async function runOp(client: pg.Client, op: Op, users: string[], pots: string[], used: Used[]): Promise<void> {
	const key = randomUUID()
	let sql: string
	switch (op) {
		case 'purchase': {
			const user = pick(users)
			const claims = JSON.stringify({ sub: user, role: 'authenticated' })
			const coins = pick([500, 1100, 2400, 6500])
			sql = `begin;
				select set_config('request.jwt.claims', '${claims}', true);
				select ledger.complete_purchase((ledger.create_purchase('coins-${coins}', ${coins}, 499, 'EUR', 'test', '${key}')).id);
				commit;`
			break
		}
		case 'boost': {
			const amount = 10 * (1 + Math.floor(Math.random() * 50))
			sql = `select * from ledger.transfer(ledger.wallet_account('${pick(users)}'), ledger.pot_account('${pick(pots)}'), ${amount}, 'boost', null, '${key}')`
			break
		}
		case 'refund': {
			const pot = pick(pots)
			const amount = 10 * (1 + Math.floor(Math.random() * 40))
			sql = `select * from ledger.transfer(ledger.pot_account('${pot}'), ledger.wallet_account('${pick(users)}'), ${amount}, '${Math.random() < 0.5 ? 'refund' : 'payout'}', null, '${key}')`
			break
		}
		case 'replay': {
			const earlier = used.length > 0 ? pick(used) : null
			if (!earlier) return runOp(client, 'boost', users, pots, used)
			sql = earlier.sql
			break
		}
		case 'delete': {
			const index = Math.floor(Math.random() * users.length)
			const victim = users[index]!
			const replacement = randomUUID()
			users[index] = replacement
			sql = `begin;
				delete from auth.users where id = '${victim}';
				insert into auth.users (id, aud, role, email) values ('${replacement}', 'authenticated', 'authenticated', '${replacement}@chaos.local');
				commit;`
			break
		}
	}
	try {
		await client.query(sql)
		count(op)
		if (op !== 'replay' && op !== 'delete' && used.length < 5000) used.push({ sql })
		else if (op !== 'replay' && op !== 'delete' && Math.random() < 0.05) used[Math.floor(Math.random() * used.length)] = { sql }
	} catch (error) {
		await client.query('rollback').catch(() => {})
		const message = error instanceof Error ? error.message : String(error)
		// Expected refusals: not enough coins in a wallet or a pot; a purchase
		// or transfer replayed for a wallet deleted in between.
		if (message === 'error-insufficient-funds') count(`${op}: insufficient funds`)
		else if (message === 'error-wallet-not-found') count(`${op}: wallet deleted`)
		else {
			count(`unexpected ${op}: ${message}`)
			if ((counts[`unexpected ${op}: ${message}`] ?? 0) <= 3) console.error(`unexpected ${op}: ${message}\n${sql}`)
		}
	}
}

main().catch((error: unknown) => {
	console.error(`chaos:money failed: ${error instanceof Error ? error.stack : String(error)}`)
	process.exitCode = 2
})
