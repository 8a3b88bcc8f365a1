/**
 * Number formats are costly to build (a session page formats hundreds of
 * amounts per render), and the same few are asked for all the time: one per
 * language and currency, kept.
 */
const formats = new Map<string, Intl.NumberFormat>()

function numberFormat(locale: string, key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
	const id = `${locale}|${key}`
	let format = formats.get(id)
	if (!format) {
		format = new Intl.NumberFormat(locale, options)
		// Locales and currencies are few; anything odd (a caller's own tag) stays bounded.
		if (formats.size < 200) formats.set(id, format)
	}
	return format
}

/** A price in the currency's minor unit (cents), in the page's language: "4,99 €", "€4.99", "4,99 TL"... */
export function formatPrice(locale: string, amountMinor: number, currency: string): string {
	return numberFormat(locale, `currency:${currency}`, { style: 'currency', currency }).format(amountMinor / 100)
}

/** Whole coins with the language's grouping: 1,100 / 1.100 / 1100. */
export function formatCoins(locale: string, coins: number): string {
	return numberFormat(locale, 'coins', { maximumFractionDigits: 0 }).format(coins)
}
