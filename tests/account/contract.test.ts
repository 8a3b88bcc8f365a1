import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import type { Database } from '#app/db/database.server'
import type { AccountService, AuthAdapter, AuthResult } from '#app/modules/account/types'
import { createSupabaseAuth } from '#app/modules/account/backends/supabase/backend.server'
import { createHarness } from '#tests/auth/support/harness'
import { describeEachDatabase } from '#tests/support/databases'
import { startMailCatcher, type MailCatcher } from '#tests/support/mail-catcher.js'
import { fundWallet, ledgerProblems } from '#tests/support/wallet'
import { APP_URL, Browser, expectError, expectOk } from '#tests/supabase/browser'
import { FakeGoTrue } from '#tests/supabase/fake-gotrue'

/**
 * The account contract: the same cases against both backends under the one
 * AccountService (app/modules/account) — Better Auth on the test database,
 * and the Supabase adapter against the loopback GoTrue stand-in
 * (tests/supabase/fake-gotrue.ts says why a stand-in) over the same database.
 * A backend that drifts from the other fails here. Cases named "attack:"
 * are the security review's findings; each fails without its fix.
 */

interface Backend {
	accounts: AccountService
	auth: AuthAdapter
	/** The newest confirmation link mailed to `email` (a path on the app), or null. */
	confirmationLink(email: string): Promise<string | null>
	/** Confirmation mails sent to `email` so far. */
	mailCount(email: string): Promise<number>
	/** After an operation: what the real platform would have written to auth.users by now. */
	sync(): Promise<void>
}

let mail: MailCatcher
beforeAll(async () => {
	mail = await startMailCatcher()
})
afterAll(async () => {
	await mail.close()
})
let fake: FakeGoTrue
beforeEach(async () => {
	fake = await FakeGoTrue.start()
})
afterEach(async () => {
	await fake.close()
})

const BACKENDS: Record<'local' | 'supabase', (db: Database, options: { trustProxy?: number }) => Backend> = {
	local(db, options) {
		const h = createHarness(db, mail, { trustProxy: options.trustProxy ?? 0 })
		const links = async (email: string) => {
			await h.settled()
			return mail
				.mailsTo(email)
				.flatMap((m) => m.links)
				.filter((l) => l.includes('/confirm?'))
		}
		return {
			accounts: h.accounts,
			auth: h.auth,
			async confirmationLink(email) {
				const link = (await links(email)).at(-1)
				if (!link) return null
				const url = new URL(link)
				return `${url.pathname}${url.search}`
			},
			mailCount: async (email) => (await links(email)).length,
			sync: async () => {},
		}
	},
	supabase(db, options) {
		const { accounts, auth } = createSupabaseAuth({
			url: fake.url,
			anonKey: 'anon',
			appUrl: APP_URL,
			serviceRoleKey: fake.serviceRoleKey,
			db,
			rateLimitSecret: 'contract',
			trustProxy: options.trustProxy ?? 0,
			retry: { baseDelayMs: 1 },
		})
		const signupMails = (email: string) => fake.mails.filter((m) => m.email === email && m.type === 'signup')
		return {
			accounts,
			auth,
			async confirmationLink(email) {
				const m = signupMails(email).at(-1)
				// The link supabase/templates/confirmation.html builds.
				return m ? `${new URL(m.redirectTo ?? '').pathname}${new URL(m.redirectTo ?? '').search}&token_hash=${m.tokenHash}&type=signup` : null
			},
			mailCount: async (email) => signupMails(email).length,
			// Supabase Auth writes auth.users in the project's database; the stand-in keeps its users in memory.
			async sync() {
				for (const user of fake.users.values()) {
					await db.query(
						`insert into auth.users (id, email, email_confirmed_at) values ($1, $2, $3)
						 on conflict (id) do update set email_confirmed_at = excluded.email_confirmed_at`,
						[user.id, user.email, user.confirmedAt],
					)
				}
			},
		}
	},
}

let counter = 0
const address = () => `contract-${Date.now().toString(36)}-${counter++}@test.local`

async function signUp(b: Backend, browser: Browser, email: string, password: string) {
	// Its cookies kept: the browser that typed the password is the one a confirmation link signs in.
	const result = browser.take(await b.accounts.signUp(browser.request('/en/register'), { email, password, locale: 'en', redirectTo: '/en' }))
	await b.sync()
	return result
}

/** Follows the newest link as the confirm card's button does (a POST to the link). */
async function confirm(b: Backend, browser: Browser, email: string) {
	const link = await b.confirmationLink(email)
	if (!link) expect.fail(`no confirmation mail to ${email}`)
	const result = browser.take(await b.accounts.confirmEmail(browser.request(link, { method: 'POST' })))
	await b.sync()
	return result
}

async function signIn(b: Backend, browser: Browser, email: string, password: string) {
	return browser.take(await b.accounts.signIn(browser.request('/en/login'), { email, password }))
}

async function viewerOf(b: Backend, browser: Browser) {
	return (await b.auth.getViewer(browser.request('/en', { method: 'GET' }))).viewer
}

function answer(result: AuthResult<unknown>) {
	return result.ok ? { ok: true, data: result.data } : { ok: false, error: result.error }
}

describeEachDatabase('account contract', (getDb) => {
	for (const name of ['local', 'supabase'] as const) {
		describe(name, () => {
			const backend = (options: { trustProxy?: number } = {}) => BACKENDS[name](getDb(), options)

			test('sign-up, confirm (POST), sign-in: the confirmed user is signed in, and the address normalised', async () => {
				const b = backend()
				const email = address()
				const browser = new Browser()
				expect(expectOk(await signUp(b, browser, `  ${email.toUpperCase()} `, 'correct horse'))).toBeNull()
				expect(expectOk(await confirm(b, browser, email))).toEqual({ redirectTo: '/en', signedIn: true })
				expect((await viewerOf(b, browser))?.email).toBe(email)
				expectOk(await signIn(b, new Browser(), email, 'correct horse'))
			})

			// Issue 24, finding 8: the owner clicked the link of a sign-up someone else made, was signed
			// in, and used an account whose password that someone knew.
			test('attack: a sign-up made elsewhere with another person\'s address: the link confirms it and signs its reader in nowhere', async () => {
				const b = backend()
				const email = address()
				expectOk(await signUp(b, new Browser(), email, 'stranger password'))
				const owner = new Browser()
				expect(expectOk(await confirm(b, owner, email))).toEqual({ redirectTo: '/en', signedIn: false })
				expect(await viewerOf(b, owner)).toBeNull()
				// Confirmed: the password works for whoever typed it, so the owner, who does not know it, resets it.
				expectOk(await signIn(b, new Browser(), email, 'stranger password'))
			})

			test('attack: a second sign-up for a pending address does not change its password, and confirming does not make the second password work', async () => {
				const b = backend()
				const email = address()
				expectOk(await signUp(b, new Browser(), email, 'owner password'))
				const second = await signUp(b, new Browser(), email, 'attacker password')
				// The same answer as a new sign-up.
				expect(answer(second)).toEqual({ ok: true, data: null })
				// The owner confirms with the newest link (theirs: the mailbox is theirs).
				expectOk(await confirm(b, new Browser(), email))
				expect(expectError(await signIn(b, new Browser(), email, 'attacker password')).code).toBe('error-invalid-credentials')
			})

			test('attack: someone who signs up first with another person\'s address does not own the account once that person confirms', async () => {
				const b = backend()
				const email = address()
				expectOk(await signUp(b, new Browser(), email, 'attacker password'))
				expectOk(await signUp(b, new Browser(), email, 'owner password'))
				const owner = new Browser()
				expectOk(await confirm(b, owner, email))
				// Neither password opens the account (the owner sets one by reset); the link signed nobody in here.
				expect(await viewerOf(b, owner)).toBeNull()
				expect(expectError(await signIn(b, new Browser(), email, 'attacker password')).code).toBe('error-invalid-credentials')
				expect(expectError(await signIn(b, new Browser(), email, 'owner password')).code).toBe('error-invalid-credentials')
			})

			test('a repeated sign-up with the same password (a double submit) keeps that password working', async () => {
				const b = backend()
				const email = address()
				expectOk(await signUp(b, new Browser(), email, 'same password'))
				expectOk(await signUp(b, new Browser(), email, 'same password'))
				// The resend countdown: the second sign-up within a minute mails nothing new.
				expect(await b.mailCount(email)).toBe(1)
				expectOk(await confirm(b, new Browser(), email))
				expectOk(await signIn(b, new Browser(), email, 'same password'))
			})

			test('attack: sign-up then sign-in does not tell whether the address already had a confirmed account', async () => {
				const b = backend()
				const taken = address()
				expectOk(await signUp(b, new Browser(), taken, 'first password'))
				expectOk(await confirm(b, new Browser(), taken))
				const fresh = address()
				const answers = []
				for (const email of [taken, fresh]) {
					const up = await signUp(b, new Browser(), email, 'probe password')
					const inn = await signIn(b, new Browser(), email, 'probe password')
					answers.push([answer(up), answer(inn)])
				}
				expect(answers[0]).toEqual(answers[1])
				expect(answers[1]?.[1]).toEqual({ ok: false, error: { code: 'error-invalid-credentials', status: 400 } })
			})

			test('attack: wrong passwords from other clients do not lock the owner out, and the 429 says how long to wait', async () => {
				const b = backend({ trustProxy: 1 })
				const email = address()
				expectOk(await signUp(b, new Browser(), email, 'owner password'))
				expectOk(await confirm(b, new Browser(), email))
				// The owner's browser has signed in here before.
				const owner = new Browser()
				expectOk(await signIn(b, owner, email, 'owner password'))
				const from = (ip: string) => ({ 'x-forwarded-for': ip })
				let refused: AuthResult<unknown> | null = null
				for (let i = 0; i < 12; i++) {
					const attacker = new Browser()
					const result = await b.accounts.signIn(attacker.request('/en/login', { headers: from('203.0.113.66') }), { email, password: `guess ${i}` })
					if (!result.ok && result.error.code === 'error-rate-limited') refused = result
				}
				if (!refused || refused.ok) expect.fail('the attacker was never refused')
				expect(Number(refused.error.reasons?.[0])).toBeGreaterThan(60)
				expect(refused.headers.get('retry-after')).toBe(refused.error.reasons?.[0])
				// The owner, on their own device and on another network, still gets in.
				expectOk(browserTake(owner, await b.accounts.signIn(owner.request('/en/login', { headers: from('203.0.113.66') }), { email, password: 'owner password' })))
				expectOk(await b.accounts.signIn(new Browser().request('/en/login', { headers: from('198.51.100.7') }), { email, password: 'owner password' }))
			})

			test('deleting an account asks for the password; the coins left are forfeited through the ledger, in SQL', async () => {
				const db = getDb()
				const b = backend()
				const email = address()
				const browser = new Browser()
				expectOk(await signUp(b, browser, email, 'owner password'))
				expectOk(await confirm(b, browser, email))
				const userId = (await viewerOf(b, browser))?.userId
				if (!userId) expect.fail('not signed in')
				// A session left open (a borrowed laptop) is not enough.
				expect(expectError(await b.accounts.deleteAccount(browser.request('/api/auth/delete'), {})).code).toBe('error-wrong-password')
				expect(expectError(await b.accounts.deleteAccount(browser.request('/api/auth/delete'), { password: 'a guess' })).code).toBe('error-wrong-password')
				await fundWallet(db, userId, 40)
				expect((await db.query('select 1 from auth.users where id = $1', [userId])).rows).toHaveLength(1)
				expectOk(browser.take(await b.accounts.deleteAccount(browser.request('/api/auth/delete'), { password: 'owner password' })))
				expect((await db.query('select 1 from auth.users where id = $1', [userId])).rows).toEqual([])
				const { rows: forfeits } = await db.query(`select amount::int from ledger.transfers where kind = 'forfeit' and reference = $1`, [userId])
				expect(forfeits).toEqual([{ amount: 40 }])
				expect(await ledgerProblems(db)).toEqual([])
				expect(await viewerOf(b, browser)).toBeNull()
			})

			test('unknown and pending addresses get the same answers to resend and reset', async () => {
				const b = backend()
				const pending = address()
				expectOk(await signUp(b, new Browser(), pending, 'a password'))
				const unknown = address()
				for (const email of [pending, unknown]) {
					// Within the countdown either way: the same 429 with the seconds left.
					const resend = await b.accounts.resendConfirmation(new Browser().request('/en/register'), { email, locale: 'en', redirectTo: '/en' })
					expect(answer(resend), email).toEqual(email === pending ? answer(resend) : expect.anything())
					const reset = await b.accounts.requestPasswordReset(new Browser().request('/en/password-reset'), { email, locale: 'en', redirectTo: '/en' })
					expect(answer(reset)).toEqual({ ok: true, data: null })
				}
			})

			test('only configured providers are offered and started', async () => {
				const b = backend()
				expect(b.accounts.oauthProviders).toEqual([])
				expect(expectError(await b.accounts.startOAuth(new Browser().request('/en/login'), { provider: 'twitch', redirectTo: '/en' }))).toEqual({
					code: 'error-provider-not-configured',
					status: 404,
				})
			})
		})
	}
})

function browserTake<T>(browser: Browser, result: AuthResult<T>): AuthResult<T> {
	return browser.take(result)
}
