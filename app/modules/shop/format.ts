/** A price in the currency's minor unit (cents), in the page's language: "4,99 €", "€4.99", "4,99 TL"... */
export function formatPrice(locale: string, amountMinor: number, currency: string): string {
	return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amountMinor / 100)
}

/** Whole coins with the language's grouping: 1,100 / 1.100 / 1100. */
export function formatCoins(locale: string, coins: number): string {
	return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(coins)
}
