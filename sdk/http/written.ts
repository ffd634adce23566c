import type { Dispatcher } from "undici";

/**
 * `dispatcher`, seen through a hook that calls `onWritten` when undici begins writing the request
 * on a connection: after the TCP connection, the TLS handshake and a proxy's tunnel are up. Before
 * it, nothing of the request has left this machine, whatever the error (a handshake that never
 * completes ends in the attempt's timeout, which alone would not tell). A dispatcher that cannot be
 * composed (a caller's own) is returned as it is, and `onWritten` never called: undefined then.
 */
export function watchWrites(dispatcher: Dispatcher, onWritten: () => void): Dispatcher | undefined {
  if (typeof dispatcher.compose !== "function") return undefined;
  return dispatcher.compose(
    (dispatch) =>
      (opts, handler): boolean =>
        dispatch(opts, {
          // The new-style handler methods undici 7+ calls, each passed on as it is.
          onRequestStart: (controller, context) => {
            onWritten();
            handler.onRequestStart?.(controller, context);
          },
          onRequestUpgrade: (...a) => handler.onRequestUpgrade?.(...a),
          onResponseStart: (...a) => handler.onResponseStart?.(...a),
          onResponseData: (...a) => handler.onResponseData?.(...a),
          onResponseEnd: (...a) => handler.onResponseEnd?.(...a),
          onResponseError: (...a) => handler.onResponseError?.(...a),
        }),
  );
}
