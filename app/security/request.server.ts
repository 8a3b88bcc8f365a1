import { createContext } from 'react-router'

/**
 * What the Node server knows about a request that the Fetch Request does not
 * carry: the TCP peer's address (the only trustworthy "is this local?") and
 * the CSP nonce its headers promised.
 */
export interface RequestSecurity {
	nonce: string
	/** The socket's remote address; undefined outside a real server (unit tests). */
	clientAddress: string | undefined
}

export const requestSecurityContext = createContext<RequestSecurity>({ nonce: '', clientAddress: undefined })
