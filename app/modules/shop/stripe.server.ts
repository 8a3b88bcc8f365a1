import Stripe from 'stripe'
import type { Env } from '#app/env.server'

let cached: { key: string; url: string | undefined; client: Stripe } | undefined

/** The Stripe client for STRIPE_SECRET_KEY (null without one), pointed at STRIPE_API_URL when set. */
export function stripeClient(env: Env): Stripe | null {
	if (!env.STRIPE_SECRET_KEY) return null
	if (cached && cached.key === env.STRIPE_SECRET_KEY && cached.url === env.STRIPE_API_URL) return cached.client
	const url = env.STRIPE_API_URL ? new URL(env.STRIPE_API_URL) : null
	const client = new Stripe(env.STRIPE_SECRET_KEY, {
		maxNetworkRetries: 2,
		timeout: 20_000,
		...(url
			? {
					host: url.hostname,
					port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
					protocol: url.protocol === 'https:' ? 'https' : 'http',
				}
			: {}),
	})
	cached = { key: env.STRIPE_SECRET_KEY, url: env.STRIPE_API_URL, client }
	return client
}

/** Stripe Checkout's own locale for the page's language (all four are supported). */
export function checkoutLocale(locale: string): Stripe.Checkout.SessionCreateParams.Locale {
	return locale === 'de' || locale === 'es' || locale === 'tr' ? locale : 'en'
}
