import { expect, test, type Page } from '@playwright/test'
import { currentDocumentVersions } from '../../../app/modules/legal/documents.server'
import { tr, type LANGS } from './i18n'
import { latestMailLink, uniqueEmail } from './mailbox'

export type Lang = (typeof LANGS)[number]

export async function openPasswordForm(page: Page, lang: Lang) {
	const details = page.locator('details.other-methods')
	if ((await details.getAttribute('open')) === null) await page.getByText(tr(lang, 'auth.other-methods')).click()
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
 * page's). For tests whose subject comes after the sign-up; the sign-up as a
 * person goes through it is `signUpAndConfirm` (accounts.spec.ts), and the
 * same posts are checked over HTTP in tests/http.
 */
export async function confirmedAccount(page: Page, lang: Lang, email: string, password: string) {
	const origin = new URL(test.info().project.use.baseURL!).origin
	const signUp = await page.request.post(`/${lang}/register`, { form: { email, password }, headers: { origin }, maxRedirects: 0 })
	expect(signUp.status(), await signUp.text()).toBe(200)
	const link = await latestMailLink(page.request, email, '/confirm')
	const confirm = await page.request.post(link, { form: { intent: 'confirm' }, headers: { origin }, maxRedirects: 0 })
	expect(confirm.status(), await confirm.text()).toBe(302)
	expect(confirm.headers().location).toContain('confirmed=1')
}

/** A confirmed, signed-in account with a username and the terms accepted (set up without rendering a page; see confirmedAccount), on home. */
export async function readyAccount(page: Page, lang: Lang, tag: string) {
	const email = uniqueEmail(tag)
	const password = `pw-${tag}-123`
	await confirmedAccount(page, lang, email, password)
	const username = `${tag.replace(/[^a-z0-9]/g, '')}_${Date.now().toString(36)}`.slice(0, 30)
	await completeAccount(page, username)
	await page.goto(`/${lang}`)
	return { email, password, username }
}

/** The steps a signed-in account owes, through the JSON routes the account dialog's scripts call: the username, then the terms. */
export async function completeAccount(page: Page, username: string) {
	const origin = new URL(test.info().project.use.baseURL!).origin
	const json = (data: Record<string, string>) => ({ data, headers: { origin } })
	expect(await (await page.request.post('/api/auth/create', json({ username }))).json()).toEqual({ username })
	const consent = await page.request.post('/api/auth/consent', json({ type: 'terms_of_service', version: currentDocumentVersions().terms_of_service }))
	expect(await consent.json()).toEqual({ accepted: true })
}
