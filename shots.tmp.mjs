import { chromium } from '@playwright/test'
const base = 'http://127.0.0.1:3141'
const out = '/tmp/e/shots'
import { mkdirSync } from 'node:fs'
mkdirSync(out, { recursive: true })
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] })
const which = process.argv[2] ?? 'all'
async function ctx(js, width, height = 900) {
  return browser.newContext({ javaScriptEnabled: js, viewport: { width, height }, locale: 'en-US' })
}
async function mailLink(page, to, part) {
  for (let i = 0; i < 20; i++) {
    const html = await (await page.request.get(base + '/dev/mailbox')).text()
    const items = html.split('<li class="card">').slice(1)
    const mail = items.find((item) => item.includes(`<strong>${to}</strong>`))
    const l = mail?.match(/href="(https?:\/\/[^"]+)"/g)?.map((h) => h.slice(6, -1).replace(/&amp;/g, '&')).find((h) => h.includes(part))
    if (l) return l
    await new Promise((r) => setTimeout(r, 300))
  }
}
const T = { en: { email: 'E-mail', password: 'Password', signup: 'Create account' }, de: { email: 'E-Mail', password: 'Passwort', signup: 'Konto erstellen' } }
async function signup(lang, js, width, tag) {
  const c = await ctx(js, width)
  const page = await c.newPage()
  const email = `shot-${tag}-${Date.now()}@example.test`
  await page.goto(`${base}/${lang}/register`)
  await page.getByLabel(T[lang].email).fill(email)
  await page.getByLabel(T[lang].password, { exact: true }).fill('secret123')
  await page.getByRole('button', { name: T[lang].signup }).click()
  await page.waitForTimeout(1500)
  await page.screenshot({ path: `${out}/register-${tag}.png`, fullPage: true })
  return { c, page, email }
}
if (which === 'all' || which === 'register') {
  for (const [lang, js, w] of [['en', false, 1440], ['de', false, 390], ['en', true, 390], ['de', true, 1440]]) {
    const { c } = await signup(lang, js, w, `${lang}-${js ? 'js' : 'nojs'}-${w}`)
    await c.close()
  }
}
if (which === 'all' || which === 'header') {
  for (const lang of ['en', 'de']) for (const js of [false, true]) {
    const c = await ctx(js, 390, 844)
    const page = await c.newPage()
    await page.goto(`${base}/${lang}`)
    await page.screenshot({ path: `${out}/header-out-${lang}-${js}.png` })
    await page.locator('.site-menu summary').click()
    await page.screenshot({ path: `${out}/header-menu-out-${lang}-${js}.png` })
    await c.close()
  }
}
await browser.close()
