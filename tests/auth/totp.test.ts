import { afterAll, beforeAll, expect, test } from 'vitest'
import { describeEachDatabase } from '#tests/support/databases'
import { startMailCatcher, type MailCatcher } from '#tests/support/mail-catcher.js'
import { createHarness, expectError, expectOk, signUpAndConfirm, type Browser, type Harness } from './support/harness'
import { totp } from './support/totp'

/**
 * Two-factor sign-in with an authenticator app (docs/product.md §10.7):
 * enrolment behind the password, confirmation with a first code, sign-in
 * asking for the code, recovery codes, removal; the assurance level the
 * database sees (aal1 / aal2) follows.
 */

let mail: MailCatcher
beforeAll(async () => {
	mail = await startMailCatcher()
})
afterAll(async () => {
	await mail.close()
})

async function aal(h: Harness, browser: Browser) {
	return (await h.auth.getViewer(browser.request('/', { method: 'GET' }))).viewer?.claims.aal ?? null
}

/** A code for the next 30-second step: never the one just used for the same factor. */
function nextCode(secret: string) {
	return totp(secret, Date.now() + 30_000)
}

describeEachDatabase('two-factor authentication (TOTP)', (getDb) => {
	test('enrol, confirm, sign in with a code or a recovery code, then turn it off', async () => {
		const db = getDb()
		const h = createHarness(db, mail)
		const browser = h.browser()
		const { email, password, userId } = await signUpAndConfirm(h, mail, browser, { locale: 'de' })

		// Enrolment needs the password.
		expectError(await h.accounts.enrollTotp(browser.request('/de/settings'), { password: 'not it' }), 'error-wrong-password', 400)
		const enrolment = expectOk(await h.accounts.enrollTotp(browser.request('/de/settings'), { password }))
		const uri = new URL(enrolment.uri)
		expect(uri.protocol).toBe('otpauth:')
		expect(uri.host).toBe('totp')
		expect(decodeURIComponent(uri.pathname)).toBe(`/Dareboost:${email}`)
		expect(uri.searchParams.get('issuer')).toBe('Dareboost')
		expect(uri.searchParams.get('secret')).toBe(enrolment.secret)
		expect(enrolment.secret).toMatch(/^[A-Z2-7]+=*$/)
		expect(enrolment.recoveryCodes).toHaveLength(10)
		expect(new Set(enrolment.recoveryCodes).size).toBe(10)

		// Not on until a first code proves the app has the secret.
		expect(await aal(h, browser)).toBe('aal1')
		expectError(await h.accounts.confirmTotpEnrollment(browser.request('/de/settings'), { code: '000000' }), 'error-invalid-totp', 422)
		expectError(await h.accounts.confirmTotpEnrollment(browser.request('/de/settings'), { code: 'abc' }), 'error-invalid-totp', 422)
		const mailsBefore = mail.mailsTo(email).length
		expectOk(browser.take(await h.accounts.confirmTotpEnrollment(browser.request('/de/settings'), { code: totp(enrolment.secret) })))
		// This session just proved the factor.
		expect(await aal(h, browser)).toBe('aal2')
		const enabledMail = await mail.waitFor(email, mailsBefore)
		expect(enabledMail.subject).toBe('Die Zwei-Faktor-Authentifizierung ist jetzt aktiv')
		const { rows } = await db.query<{ enabled: boolean }>('select "twoFactorEnabled" as enabled from better_auth."user" where id = $1', [userId])
		expect(rows).toEqual([{ enabled: true }])

		// Sign-in now asks for the code, and gives no session before it.
		const laptop = h.browser()
		const first = expectOk(laptop.take(await h.accounts.signIn(laptop.request('/de/login'), { email, password })))
		expect(first).toEqual({ totpRequired: true })
		expect(laptop.hasSession()).toBe(false)
		expect(await aal(h, laptop)).toBeNull()
		expectError(await h.accounts.verifySignInTotp(laptop.request('/de/login'), { code: '123456' }), 'error-invalid-totp', 422)
		expectOk(laptop.take(await h.accounts.verifySignInTotp(laptop.request('/de/login'), { code: nextCode(enrolment.secret) })))
		expect(laptop.hasSession()).toBe(true)
		expect(await aal(h, laptop)).toBe('aal2')

		// A recovery code instead of the app; each works once.
		const phoneLost = h.browser()
		expect(expectOk(phoneLost.take(await h.accounts.signIn(phoneLost.request('/de/login'), { email, password })))).toEqual({ totpRequired: true })
		const recovery = enrolment.recoveryCodes[0]!
		expectOk(phoneLost.take(await h.accounts.verifySignInTotp(phoneLost.request('/de/login'), { code: recovery })))
		expect(await aal(h, phoneLost)).toBe('aal2')
		const again = h.browser()
		again.take(await h.accounts.signIn(again.request('/de/login'), { email, password }))
		expectError(await h.accounts.verifySignInTotp(again.request('/de/login'), { code: recovery }), 'error-invalid-totp')
		expectOk(again.take(await h.accounts.verifySignInTotp(again.request('/de/login'), { code: enrolment.recoveryCodes[1]! })))

		// Removal needs the password too, and tells the user by mail.
		expectError(await h.accounts.disableTotp(laptop.request('/de/settings'), { password: 'not it' }), 'error-wrong-password')
		const beforeOff = mail.mailsTo(email).length
		expectOk(laptop.take(await h.accounts.disableTotp(laptop.request('/de/settings'), { password })))
		expect((await mail.waitFor(email, beforeOff)).subject).toBe('Die Zwei-Faktor-Authentifizierung ist jetzt aus')
		expect(await aal(h, laptop)).toBe('aal1')
		const plain = h.browser()
		expect(expectOk(plain.take(await h.accounts.signIn(plain.request('/de/login'), { email, password })))).toEqual({ totpRequired: false })
		expect(plain.hasSession()).toBe(true)
	})

	test('a code without a pending sign-in, or after too many wrong codes, means signing in again', async () => {
		const h = createHarness(getDb(), mail)
		const browser = h.browser()
		const { email, password } = await signUpAndConfirm(h, mail, browser)
		const { secret } = expectOk(await h.accounts.enrollTotp(browser.request('/en/settings'), { password }))
		expectOk(browser.take(await h.accounts.confirmTotpEnrollment(browser.request('/en/settings'), { code: totp(secret) })))

		const stranger = h.browser()
		expectError(await h.accounts.verifySignInTotp(stranger.request('/en/login'), { code: nextCode(secret) }), 'error-session-not-found', 401)

		const guesser = h.browser()
		guesser.take(await h.accounts.signIn(guesser.request('/en/login'), { email, password }))
		for (let i = 0; i < 5; i++) {
			expectError(await h.accounts.verifySignInTotp(guesser.request('/en/login'), { code: String(100000 + i) }), 'error-invalid-totp')
		}
		// The challenge is used up: even the right code needs a new sign-in.
		expectError(await h.accounts.verifySignInTotp(guesser.request('/en/login'), { code: nextCode(secret) }), 'error-session-not-found', 401)
		expect(guesser.hasSession()).toBe(false)
	})

	test('a session from before enrolment is not signed in until it proves the factor (as on Supabase), and cannot remove it', async () => {
		const h = createHarness(getDb(), mail)
		const phone = h.browser()
		const { email, password } = await signUpAndConfirm(h, mail, phone)
		// Signed in elsewhere before TOTP existed.
		const tablet = h.browser()
		expectOk(tablet.take(await h.accounts.signIn(tablet.request('/en/login'), { email, password })))

		const { secret } = expectOk(await h.accounts.enrollTotp(phone.request('/en/settings'), { password }))
		expectOk(phone.take(await h.accounts.confirmTotpEnrollment(phone.request('/en/settings'), { code: totp(secret) })))

		// The pages take it for a visitor (the database would show it nothing of the user's: has_assurance).
		expect(await aal(h, tablet)).toBeNull()
		const refused = expectError(await h.accounts.disableTotp(tablet.request('/en/settings'), { password }), 'error-not-authenticated', 403)
		expect(refused.reasons).toEqual(['aal2-required'])
		expectError(await h.accounts.deleteAccount(tablet.request('/en/settings'), { code: '000000' }), 'error-not-authenticated', 403)

		// Step-up: the same session proves the factor.
		expectOk(await h.accounts.verifySignInTotp(tablet.request('/en/settings'), { code: nextCode(secret) }))
		expect(await aal(h, tablet)).toBe('aal2')
	})

	test('enrolment and its confirmation need a signed-in user', async () => {
		const h = createHarness(getDb(), mail)
		const visitor = h.browser()
		expectError(await h.accounts.enrollTotp(visitor.request('/en/settings'), { password: 'anything' }), 'error-not-authenticated', 401)
		expectError(await h.accounts.confirmTotpEnrollment(visitor.request('/en/settings'), { code: '123456' }), 'error-not-authenticated', 401)
		expectError(await h.accounts.disableTotp(visitor.request('/en/settings'), { password: 'anything' }), 'error-not-authenticated', 401)
	})
})
