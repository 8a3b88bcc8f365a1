import { expect, test } from './support/test'

/** Relative luminance of a CSS rgb() colour (WCAG). */
function luminance(rgb: string) {
	const [r, g, b] = rgb.match(/\d+(\.\d+)?/g)!.slice(0, 3).map((c) => {
		const v = Number(c) / 255
		return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4
	}) as [number, number, number]
	return 0.2126 * r + 0.7152 * g + 0.0722 * b
}
const contrast = (a: string, b: string) => {
	const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
	return (hi + 0.05) / (lo + 0.05)
}

for (const scheme of ['light', 'dark'] as const) {
	test(`the site follows the system's ${scheme} setting, with readable text`, async ({ page }) => {
		await page.emulateMedia({ colorScheme: scheme })
		await page.goto('/en/twitch/mia_plays')
		const colours = await page.evaluate(() => {
			const style = (selector: string) => getComputedStyle(document.querySelector(selector)!)
			return {
				background: style(':root').backgroundColor,
				text: style('body').color,
				scheme: style(':root').colorScheme,
				// The player stays a dark screen with light words in either theme.
				playerText: style('.player--placeholder p').color,
			}
		})
		expect(colours.scheme).toBe(scheme)
		expect(luminance(colours.background) > 0.5).toBe(scheme === 'light')
		expect(contrast(colours.text, colours.background)).toBeGreaterThan(7)
		expect(contrast(colours.playerText, 'rgb(15, 13, 23)')).toBeGreaterThan(7)
	})
}
