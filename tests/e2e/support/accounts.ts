import { expect, test, type Page } from '@playwright/test'
import { DEMO_PASSWORD } from '../../../app/db/seed.server'
import { currentDocumentVersions } from '../../../app/modules/legal/documents.server'
import { tr, type LANGS } from './i18n'
import { latestMailLink, uniqueEmail } from './mailbox'

export type Lang = (typeof LANGS)[number]

/** The e-mail form: under "Other login methods" beside Twitch, else shown at once. */
export async function openPasswordForm(page: Page, lang: Lang) {
	const details = page.locator('details.other-methods')
	if ((await details.count()) > 0 && (await details.getAttribute('open')) === null) await page.getByText(tr(lang, 'auth.other-methods')).click()
}

export async function signIn(page: Page, lang: Lang, email: string, password: string) {
	if (!page.url().includes(`/${lang}/login`)) await page.goto(`/${lang}/login`)
	await openPasswordForm(page, lang)
	await page.getByLabel(tr(lang, 'auth.email')).fill(email)
	await page.getByLabel(tr(lang, 'auth.password'), { exact: true }).fill(password)
	await page.getByRole('button', { name: tr(lang, 'auth.sign-in') }).click()
}

/** Registers through the page, follows the mail's link and presses its one button (which signs the account in). */
export async function signUpAndConfirm(page: Page, lang: Lang, email: string, password: string) {
	await page.goto(`/${lang}/register`)
	await page.getByLabel(tr(lang, 'auth.email')).fill(email)
	await page.getByLabel(tr(lang, 'auth.password'), { exact: true }).fill(password)
	await page.getByRole('button', { name: tr(lang, 'auth.sign-up') }).click()
	const panel = page.getByRole('region', { name: tr(lang, 'auth.email-confirm-title') })
	await expect(panel).toBeVisible()
	await expect(panel.getByText(email)).toBeVisible()
	const link = await latestMailLink(page.request, email, '/confirm')
	await page.goto(link)
	// The link's page consumes nothing until its button is pressed (mail scanners fetch links).
	await expect(page.getByRole('heading', { name: tr(lang, 'auth.email-confirm-pending-title') })).toBeVisible()
	await page.getByRole('button', { name: tr(lang, 'auth.email-confirm-button') }).click()
	await expect(page.getByRole('heading', { name: tr(lang, 'auth.email-confirmed-title') })).toBeVisible()
	// Following the link signs the new account in.
	await expect(page.getByRole('button', { name: tr(lang, 'auth.sign-out') })).toBeVisible()
	expect(page.url()).not.toContain('token=')
}

/**
 * A confirmed account, signed in in the page's browser context, without
 * rendering a page: the sign-up form's post, the mail's link and its button's
 * post, sent by the context's own request client (its cookies are the
 * page's), as a browser without JavaScript sends them. For tests whose
 * subject comes after the sign-up; the sign-up as a person goes through it is
 * `signUpAndConfirm` (accounts.spec.ts).
 */
export async function confirmedAccount(page: Page, lang: Lang, email: string, password: string) {
	const origin = new URL(test.info().project.use.baseURL!).origin
	const signUp = await page.request.post(`/${lang}/register`, { form: { email, password }, headers: { origin }, maxRedirects: 0 })
	expect(signUp.status(), await signUp.text()).toBe(200)
	const link = await latestMailLink(page.request, email, '/confirm')
	const confirm = await page.request.post(link, { form: { intent: 'confirm' }, headers: { origin }, maxRedirects: 0 })
	expect(confirm.status(), await confirm.text()).toBe(302)
	expect(confirm.headers().location).toContain('confirmed=1')
	// Confirming signed the account in, in this browser context.
	expect((await page.context().cookies()).some((cookie) => cookie.name.includes('session_token'))).toBe(true)
}

/** A confirmed, signed-in account with a username and the terms accepted (set up without rendering a page; see confirmedAccount), on home. */
export async function readyAccount(page: Page, lang: Lang, tag: string) {
	const email = uniqueEmail(tag)
	const password = `pw-${tag}-123`
	await confirmedAccount(page, lang, email, password)
	const username = `${tag.replace(/[^a-z0-9]/g, '')}_${Date.now().toString(36)}`.slice(0, 30)
	await completeAccount(page, lang, username)
	await page.goto(`/${lang}`)
	return { email, password, username }
}

/**
 * The steps a signed-in account owes, posted as the account dialog's forms
 * post them (`/api/auth/create`, then `/api/auth/consent`), each followed to
 * the page it returns to, which shows (and so uses up) its confirmation.
 */
export async function completeAccount(page: Page, lang: Lang, username: string) {
	const origin = new URL(test.info().project.use.baseURL!).origin
	const steps: Array<[string, Record<string, string>, string]> = [
		['/api/auth/create', { username }, tr(lang, 'account.complete-success', { username })],
		['/api/auth/consent', { type: 'terms_of_service', version: currentDocumentVersions().terms_of_service }, tr(lang, 'account.terms-accepted')],
	]
	for (const [path, form, confirmation] of steps) {
		const response = await page.request.post(path, { form: { ...form, redirectTo: `/${lang}` }, headers: { origin } })
		expect(response.url(), path).toMatch(new RegExp(`/${lang}$`))
		const html = (await response.text()).replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&')
		expect(html, path).toContain(confirmation)
	}
}

/** A demo account signed in by the sign-in form's post, its terms accepted as the dialog posts them (idempotent: the other mode may have done it). */
export async function signInDemo(page: Page, lang: Lang, email: string) {
	const origin = new URL(test.info().project.use.baseURL!).origin
	const signIn = await page.request.post(`/${lang}/login`, { form: { email, password: DEMO_PASSWORD, redirectTo: `/${lang}` }, headers: { origin }, maxRedirects: 0 })
	expect(signIn.status(), await signIn.text()).toBe(302)
	const terms = await page.request.post('/api/auth/consent', {
		form: { type: 'terms_of_service', version: currentDocumentVersions().terms_of_service, redirectTo: `/${lang}` },
		headers: { origin },
		maxRedirects: 0,
	})
	expect(terms.status(), await terms.text()).toBe(302)
}
