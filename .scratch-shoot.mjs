import { chromium } from '@playwright/test'
const base = 'http://127.0.0.1:3171'
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless', '--disable-gpu'] })
const shots = JSON.parse(process.argv[2])
for (const [path, width, js, full, name] of shots) {
	const context = await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 }, javaScriptEnabled: js })
	const page = await context.newPage()
	await page.goto(base + path, { waitUntil: 'load', timeout: 60000 })
	await page.waitForTimeout(js ? 1500 : 200)
	await page.screenshot({ path: `/tmp/wt-l-shots/${name}.png`, fullPage: full })
	await context.close()
}
await browser.close()
