// The ticket's barcode (issue 25 item 1): where the event's tickets rotate, the ticket code and a time code that
// changes every 30 s (contract/time-code.ts), computed on the phone from the ticket's secret and the phone's clock
// corrected by the server's (lib/server-clock), so it works offline; recomputed at each step's edge (a timer a
// hidden page held back fires when it is shown again). The digits under the bars are the same text, for typing at
// the door within the minute, and the seconds left to the next change (issue 37 item 3). Where tickets do not rotate
// (printed tickets), the plain code, as before.
import { useEffect, useState } from 'preact/hooks'
import { STEP_MS, stepOf, timeCode, withTimeCode } from '../../../contract/time-code.ts'
import { Barcode } from '../../components/barcode/index.tsx'
import { serverNow } from '../../lib/server-clock.ts'
import s from './style.module.css'

export function TicketBarcode({ code, secret }: { code: string; secret?: string | null }) {
  const [text, setText] = useState<string | null>(null)
  useEffect(() => {
    if (!secret) return
    let timer: ReturnType<typeof setTimeout> | undefined
    let live = true
    const tick = async () => {
      const now = serverNow()
      // No Web Crypto (a page served over plain http): the plain code, which the door refuses while tickets rotate.
      const shown = await timeCode(secret, stepOf(now)).then(
        (time) => withTimeCode(code, time),
        () => code,
      )
      if (!live) return
      setText(shown)
      timer = setTimeout(tick, STEP_MS - (now % STEP_MS))
    }
    void tick()
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [code, secret])
  if (!secret) return <Barcode value={code} label="Ticket barcode" />
  return (
    <>
      {text && <Barcode value={text} label="Ticket barcode" />}
      <p class={s.muted}>
        The code changes every 30 seconds: a screenshot will not get you in. <Countdown />
      </p>
    </>
  )
}

/** Seconds to the time code's next change (issue 37 item 3), by the server-corrected clock; not announced each second. */
function Countdown() {
  const left = () => Math.ceil((STEP_MS - (serverNow() % STEP_MS)) / 1000)
  const [seconds, setSeconds] = useState(left)
  useEffect(() => {
    const timer = setInterval(() => setSeconds(left()), 1000)
    return () => clearInterval(timer)
  }, [])
  return <span class={s.countdown}>New code in {seconds} s</span>
}
