//! Run futures together and collect their outputs in order, on whatever executor polls the
//! whole: the calls of one response, for [`Toolbox::run_all_async`](super::Toolbox::run_all_async).
//!
//! Written here rather than taken from `futures-util` (whose `join_all` does the same) to keep
//! the four crates it adds out of every build of this crate, for some twenty lines.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// Every future polled on each wake until all are done; their outputs in the futures' order.
/// Meant for a handful of futures (one response's calls, which the call readers bound), where
/// polling each pending one on every wake costs nothing worth a waker per future.
pub(super) struct JoinAll<F: Future> {
    pending: Vec<Option<Pin<Box<F>>>>,
    outputs: Vec<Option<F::Output>>,
}

pub(super) fn join_all<F: Future>(futures: impl IntoIterator<Item = F>) -> JoinAll<F> {
    let pending: Vec<_> = futures.into_iter().map(|future| Some(Box::pin(future))).collect();
    let outputs = pending.iter().map(|_| None).collect();
    JoinAll { pending, outputs }
}

// The futures are boxed and the outputs are never pinned: moving a `JoinAll` moves neither.
impl<F: Future> Unpin for JoinAll<F> {}

impl<F: Future> Future for JoinAll<F> {
    type Output = Vec<F::Output>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        let mut done = true;
        for (slot, output) in this.pending.iter_mut().zip(&mut this.outputs) {
            if let Some(future) = slot {
                match future.as_mut().poll(cx) {
                    Poll::Ready(value) => {
                        *output = Some(value);
                        *slot = None;
                    }
                    Poll::Pending => done = false,
                }
            }
        }
        if done {
            Poll::Ready(this.outputs.drain(..).flatten().collect())
        } else {
            Poll::Pending
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::task::Wake;

    struct CountWakes(AtomicUsize);

    impl Wake for CountWakes {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Pending `n` times (waking itself each time), then ready with `value`.
    struct YieldThen {
        n: usize,
        value: usize,
    }

    impl Future for YieldThen {
        type Output = usize;
        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<usize> {
            if self.n == 0 {
                return Poll::Ready(self.value);
            }
            self.n -= 1;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }

    #[test]
    fn outputs_come_in_the_futures_order_whatever_order_they_finish_in() {
        let waker = Arc::new(CountWakes(AtomicUsize::new(0))).into();
        let mut cx = Context::from_waker(&waker);
        let mut joined = join_all([3, 0, 1].into_iter().enumerate().map(|(value, n)| YieldThen { n, value }));
        let mut polls = 0;
        let outputs = loop {
            polls += 1;
            if let Poll::Ready(outputs) = Pin::new(&mut joined).poll(&mut cx) {
                break outputs;
            }
        };
        assert_eq!(outputs, [0, 1, 2]);
        // They ran together: as many polls as the slowest needs, not the sum.
        assert_eq!(polls, 4);
        assert!(join_all(Vec::<YieldThen>::new()).outputs.is_empty());
    }
}
