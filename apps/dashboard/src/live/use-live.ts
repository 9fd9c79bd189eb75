import { useEffect, useRef, useState } from 'preact/hooks';
import { live, type LiveFrame } from './events';

export interface LiveData<T> {
  data?: T;
  error?: string;
  /** Replaces the data (an update the person just made, before its event arrives). */
  set(update: (current: T) => T): void;
}

interface State<T> {
  key: string;
  data?: T;
  error?: string;
}

/**
 * Data a view shows, kept current: loaded once, changed in place by the live events `apply` knows,
 * and loaded again whenever the live socket (re)connects, which catches up with anything missed.
 * `key` names everything `load` and `apply` depend on: a new key loads again, and an answer for an
 * older key (the person moved on meanwhile) is dropped. `reloadOn`, when given, names the events
 * after which the data is loaded again rather than changed in place (an event saying only what changed,
 * such as `ai_log_written`).
 */
export function useLive<T>(key: string, load: () => Promise<T>, apply: (current: T, frame: LiveFrame) => T, reloadOn?: (frame: LiveFrame) => boolean): LiveData<T> {
  const [state, setState] = useState<State<T>>({ key });
  const latest = useRef(key);
  latest.current = key;
  useEffect(() => {
    // One load at a time: a reload asked for while one runs is made once, when it ends (a burst of events costs two loads, not one each).
    let running = false;
    let again = false;
    // Events heard while a load is out: its answer may predate them, so they are applied to it too, and it is loaded once more.
    let heard: LiveFrame[] = [];
    const reload = async (): Promise<void> => {
      if (running) return void (again = true);
      running = true;
      heard = [];
      await load().then(
        (data) => {
          const replayed = heard.reduce(apply, data);
          // An event that changed what was loaded may have been counted in it or not: a fresh load settles it.
          if (replayed !== data) again = true;
          if (latest.current === key) setState({ key, data: replayed });
        },
        (error: Error) => latest.current === key && setState((s) => ({ ...(s.key === key ? s : {}), key, error: error.message })),
      );
      heard = [];
      running = false;
      if (again) {
        again = false;
        await reload();
      }
    };
    void reload();
    return live.subscribe((frame) => {
      if (frame.event === 'connected' || reloadOn?.(frame)) void reload();
      else {
        if (running) heard.push(frame);
        setState((s) => (s.key !== key || s.data === undefined ? s : { ...s, data: apply(s.data, frame) }));
      }
    });
  }, [key]);
  const current = state.key === key ? state : { key };
  return { data: current.data, error: current.error, set: (update) => setState((s) => (s.key !== key || s.data === undefined ? s : { ...s, data: update(s.data) })) };
}
