// The app's router: preact-iso 2.12.2's router and lazy (MIT License, Copyright (c) 2020 The Preact Authors,
// https://github.com/preactjs/preact-iso), cut down to what this app uses, because every byte of it is on the
// first load (issue 15). Same API and behaviour for what is kept: LocationProvider (links and history), Router
// and Route (`:param`, `:rest*`, `default`; a lazy route keeps the previous screen up until its code is in, then
// scrolls to the top after a push), useLocation, useRoute, lazy and ErrorBoundary. Left out: hydration of
// prerendered HTML, the Router's onLoadStart/onLoadEnd/onRouteChange, LocationProvider's scope and url props,
// back/forward, `+`, `?` and bare `*` segments, and refs forwarded through lazy components.
//
// It reaches into Preact's internals exactly as preact-iso does (the mangled names of preact/mangle.json: __c is a
// component's _childDidSuspend, __e the _catchError hook and a vnode's _dom, __k _children, __ _parent).
import { type ComponentChildren, type ComponentType, cloneElement, createContext, h, options, toChildArray, type VNode } from 'preact'
import { useContext, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'preact/hooks'

export interface LocationHook {
  url: string
  path: string
  query: Record<string, string>
  route: (url: string, replace?: boolean) => void
  wasPush: boolean
}

export interface RouteHook {
  path: string
  query: Record<string, string>
  params: Record<string, string>
  rest?: string
}

/** Whether the last navigation pushed (true), replaced (false) or came from the browser (undefined). */
let push: boolean | undefined

type NavAction = MouseEvent | PopStateEvent | { url: string; replace?: boolean; type?: undefined }

function handleNav(state: string, action: NavAction): string {
  let url = ''
  push = undefined
  if (action && action.type === 'click') {
    const click = action as MouseEvent
    // Left to the browser: modified clicks, other buttons, other origins, fragments, other targets, downloads.
    if (click.ctrlKey || click.metaKey || click.altKey || click.shiftKey || click.button !== 0) return state
    const link = click.composedPath().find((el) => (el as Element).nodeName === 'A' && (el as HTMLAnchorElement).href) as HTMLAnchorElement | undefined
    const href = link && link.getAttribute('href')
    if (!link || link.origin !== location.origin || /^#/.test(href!) || !/^(_?self)?$/i.test(link.target) || link.download) return state
    push = true
    click.preventDefault()
    url = link.href.replace(location.origin, '')
  } else if (action && (action as { url?: string }).url) {
    push = !(action as { replace?: boolean }).replace
    url = (action as { url: string }).url
  } else {
    url = location.pathname + location.search
  }
  if (push === true) history.pushState(null, '', url)
  else if (push === false) history.replaceState(null, '', url)
  return url
}

/** Matches `url` against a route pattern ('/event-details/:id', '/manage/:rest*'); the params, or undefined. */
export function exec(url: string, route: string, matches: any = {}): any {
  const have = url.split('/').filter(Boolean)
  const want = (route || '').split('/').filter(Boolean)
  if (!matches.params) matches.params = {}
  for (let i = 0; i < Math.max(have.length, want.length); i++) {
    const [, m, param, flag] = (want[i] || '').match(/^(:?)(.*?)(\*?)$/)!
    let val: string | undefined = have[i]
    // segment match:
    if (!m && param === val) continue
    // segment mismatch / missing required field:
    if (!m || (!val && flag !== '*')) return
    const rest = flag === '*'
    if (rest) val = have.slice(i).map(decodeURIComponent).join('/') || undefined
    else if (val) val = decodeURIComponent(val)
    matches.params[param] = val
    if (!(param in matches)) matches[param] = val
    if (rest) break
  }
  return matches
}

const LocationContext = createContext<LocationHook>({} as LocationHook)
const RouteContext = createContext<RouteHook>({} as RouteHook)

export function LocationProvider({ children }: { children?: ComponentChildren }) {
  const [url, route] = useReducer(handleNav, location.pathname + location.search)
  const wasPush = push === true
  const value = useMemo(() => {
    const u = new URL(url, location.origin)
    const path = u.pathname.replace(/\/+$/g, '') || '/'
    return {
      url,
      path,
      query: Object.fromEntries(u.searchParams),
      route: (url: string, replace?: boolean) => route({ url, replace }),
      wasPush,
    }
  }, [url])
  useLayoutEffect(() => {
    addEventListener('click', route)
    addEventListener('popstate', route)
    return () => {
      removeEventListener('click', route)
      removeEventListener('popstate', route)
    }
  }, [])
  return h(LocationContext.Provider, { value }, children)
}

const RESOLVED = Promise.resolve()

// Lazily render a ref's current value:
const RenderRef = ({ r }: { r: { current: VNode<any> | null | undefined } }) => r.current

export function Router(this: any, props: { children?: ComponentChildren }) {
  const [c, update] = useReducer((c: number) => c + 1, 0)
  const { url, query, wasPush, path } = useLocation()
  const { rest = path, params = {} } = useContext(RouteContext)
  const prevRoute = useRef(path)
  // Monotonic counter used to check if an un-suspending route is still the current route:
  const count = useRef(1)
  // The current route, and the previous one while the current one is suspended:
  const cur = useRef<VNode<any>>()
  const prev = useRef<VNode<any> | null>()
  // Was the most recent render successful (did not suspend):
  const didSuspend = useRef(false)
  didSuspend.current = false

  let pathRoute: VNode | undefined
  let defaultRoute: VNode | undefined
  let matchProps: any
  toChildArray(props.children).some((vnode: any) => {
    const matches = exec(rest, vnode.props.path, (matchProps = { ...vnode.props, path: rest, query, params: Object.assign({}, params), rest: '' }))
    if (matches) return (pathRoute = cloneElement(vnode, matchProps))
    if (vnode.props.default) defaultRoute = cloneElement(vnode, matchProps)
  })
  const incoming: any = pathRoute || defaultRoute

  const routeChanged = useMemo(() => {
    prev.current = cur.current
    cur.current = h(RouteContext.Provider, { value: matchProps }, incoming)
    // Only mark as an update if the route component changed.
    const outgoing: any = prev.current && prev.current.props.children
    if (!outgoing || !incoming || incoming.type !== outgoing.type || incoming.props.component !== outgoing.props.component) {
      count.current++
      return true
    }
    return false
  }, [url, JSON.stringify(matchProps)])

  // Reset previous children - if rendering succeeds synchronously, we shouldn't render the previous children.
  const p = prev.current
  prev.current = null

  // Preact's _childDidSuspend: the new route suspended (its lazy code is on its way), so keep the previous route up.
  this.__c = (e: Promise<unknown>) => {
    didSuspend.current = true
    prev.current = p
    const c = count.current
    e.then(() => {
      // Ignore this update if it isn't the most recently suspended update:
      if (c !== count.current) return
      prev.current = null
      RESOLVED.then(update as () => void)
    })
  }

  useLayoutEffect(() => {
    // Ignore suspended renders (failed commits):
    if (didSuspend.current) return
    // The route is loaded and rendered.
    if (prevRoute.current !== path) {
      if (wasPush) scrollTo(0, 0)
      prevRoute.current = path
    }
  }, [path, wasPush, c])

  // Note: cur MUST render first in order to set didSuspend & prev.
  return routeChanged
    ? [h(RenderRef, { r: cur, key: count.current }), h(RenderRef, { r: prev, key: count.current - 1 })]
    : h(RenderRef, { r: cur, key: count.current })
}

export const Route = (props: { path?: string; default?: boolean; component: ComponentType<any>; [prop: string]: any }) => h(props.component, props)

export const useLocation = () => useContext(LocationContext)
export const useRoute = () => useContext(RouteContext)

/** A component whose code is fetched on first render (or `preload()`); it suspends until then. */
export function lazy<P>(load: () => Promise<{ default: ComponentType<P> } | ComponentType<P>>) {
  let p: Promise<unknown> | undefined
  let c: ComponentType<P> | undefined
  const loadModule = () => load().then((m: any) => (c = (m && m.default) || m))
  const LazyComponent = (props: P) => {
    const [, update] = useState(0)
    const r = useRef<Promise<unknown>>()
    if (!p) p = loadModule()
    if (c !== undefined) return h(c as ComponentType<any>, props as any)
    if (!r.current) r.current = p.then(() => update(1))
    throw p
  }
  LazyComponent.preload = () => {
    if (!p) p = loadModule()
    return p
  }
  return LazyComponent
}

// A thrown promise goes to the nearest ancestor that can wait (a Router or an ErrorBoundary), like preact/compat's
// Suspense: https://github.com/preactjs/preact/blob/88680e91ec0d5fc29d38554a3e122b10824636b6/compat/src/suspense.js#L5
const o = options as any
const oldCatchError = o.__e
o.__e = (err: any, newVNode: any, oldVNode: any) => {
  if (err && err.then) {
    let v = newVNode
    while ((v = v.__)) {
      if (v.__c && v.__c.__c) {
        if (newVNode.__e == null) {
          newVNode.__c.__z = [oldVNode.__e]
          newVNode.__e = oldVNode.__e // ._dom
          newVNode.__k = oldVNode.__k // ._children
        }
        if (!newVNode.__k) newVNode.__k = []
        return v.__c.__c(err, newVNode)
      }
    }
  }
  if (oldCatchError) oldCatchError(err, newVNode, oldVNode)
}

/** Renders its children again once a lazy one among them has loaded. */
export function ErrorBoundary(this: any, props: { children?: ComponentChildren; onError?: (error: unknown) => void }) {
  this.__c = childDidSuspend
  this.componentDidCatch = props.onError
  return props.children
}

function childDidSuspend(this: any, err: Promise<unknown>) {
  err.then(() => this.forceUpdate())
}
