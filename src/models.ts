// THE module that builds the app's models (issue 38 item 4), in dependency order, once for the app; no store module
// builds an instance of its own (test/unit/models.test.ts refuses one), and the screens take theirs from here.
//
// A module is never split between chunks, so this one imports only the start path's models: a room's store imported
// here would put that screen's models in every student's first load. The lazy rooms are listed below as types (no
// bytes); each room's builder lives in its store module, in the room's chunk, and `room(build)` builds it the first
// time a screen asks, from the start models (`events`, `session`) and the other rooms it asks `room` for, then hands
// out the same models. See docs/architecture.md "Models: where they are built".
import { api } from './api/calls.ts'
import { EventsModel } from './stores/events.ts'
import { type Builder, SessionModel, type StartModels } from './stores/session.ts'

export type { Builder, StartModels }

// The start path's models, in dependency order: the events list, then the session that loads it. Two plain
// statements rather than a function: a function costs the first load 31-53 B (measured, issue 38).
export const events = new EventsModel(api.getEvents)
export const session = new SessionModel({ me: api.me, events })

const start: StartModels = { events, session }
const built = new Map<Builder<unknown>, unknown>()

/**
 * The room `build` builds: built on the first call (from the start models), the same models on every call after. A
 * builder answers its models (a model, an object, a function: never undefined, which would be built again).
 */
export function room<T>(build: Builder<T>): T {
  let models = built.get(build) as T | undefined
  if (!models) built.set(build, (models = build(start, room)))
  return models
}

/**
 * Every lazy room and its builder, by type only (the builders stay in their rooms' chunks). test/unit/models.test.ts
 * checks that every builder exported by src/stores/ is listed here, and typecheck that each is a `Builder`.
 */
export interface Rooms {
  /** The event screens: the event's details (needs setParticipant). */
  eventDetail: typeof import('./stores/event-detail.ts').buildEventDetail
  /** An answer written into the start path's events list, so its card shows it. */
  setParticipant: typeof import('./stores/event-detail.ts').buildSetParticipant
  /** The ticket just given to a friend, on this phone (transfer writes it, the waitlist panel reads it). */
  givenAway: typeof import('./stores/event-detail.ts').buildGivenAway
  /** The Register form's answers (needs eventDetail). */
  registerAnswers: typeof import('./stores/register-answers.ts').buildRegisterAnswers
  /** The team screens' actions (needs eventDetail). */
  team: typeof import('./stores/team.ts').buildTeam
  /** The ticket's transfer (needs eventDetail). */
  transfer: typeof import('./stores/transfer.ts').buildTransfer
  /** The waitlist panel's give back and waitlist (needs eventDetail). */
  giveBack: typeof import('./stores/give-back.ts').buildGiveBack
  /** The calendar's months and a parent's children. */
  eventLists: typeof import('./stores/event-lists.ts').buildEventLists
  /** The login screen's completion of a sign-in, and the sign-out (they reset the session). */
  completeSignIn: typeof import('./stores/session-flows.ts').buildCompleteSignIn
  signOut: typeof import('./stores/session-flows.ts').buildSignOut
  /** The door (its queue on the phone). */
  door: typeof import('./stores/door.ts').buildDoor
  inbox: typeof import('./stores/inbox.ts').buildInbox
  push: typeof import('./stores/push.ts').buildPush
  councils: typeof import('./stores/councils.ts').buildCouncils
  myEvents: typeof import('./stores/my-events.ts').buildMyEvents
  feeds: typeof import('./stores/feeds.ts').buildFeeds
  points: typeof import('./stores/points.ts').buildPoints
  /** The organiser console. */
  org: typeof import('./stores/org.ts').buildOrg
  paymentsConsole: typeof import('./stores/payments-console.ts').buildPaymentsConsole
  /** The console's activity points: the college's settings kept, an event's points and winners, the admin's lists. */
  orgPoints: typeof import('./stores/org-points.ts').buildOrgPoints
}

/**
 * The models a screen builds for itself, once per event it shows, and drops with it (not rooms: no other screen
 * shares them): the door's cash desk for one event (`useMemo`), the pay step of one place (`useState`).
 */
export interface ScreenModels {
  desk: typeof import('./stores/desk.ts').buildDesk
  payment: typeof import('./stores/payment.ts').buildPayment
}

// Each listed builder is one `room` can build (a compile-time check, no bytes).
type Check<T extends Record<string, Builder<unknown>>> = T
export type RoomsAreBuilders = Check<{ [K in keyof Rooms]: Rooms[K] }>
