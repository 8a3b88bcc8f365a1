import { createContext, useContext } from 'react'

/**
 * The request's CSP nonce, given by the server entry to the root layout so
 * <Scripts> and <ScrollRestoration> carry it. In the browser it is empty:
 * browsers hide the attribute after parsing, and hydration does not need it.
 */
const NonceContext = createContext('')

export const NonceProvider = NonceContext.Provider

export function useNonce(): string {
	return useContext(NonceContext)
}
