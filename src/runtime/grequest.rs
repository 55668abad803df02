//! Generalized requests (MPI-4.1 §13.2): operations the application carries out itself and
//! completes with MPI_Grequest_complete, while MPI's wait and test calls treat them as any
//! request, calling the application's query, free and cancel functions (`Functions`, the
//! binding's). The functions run with no lock held: they may call MPI.

use crate::error::Result;
use crate::pt2pt::Status;
use std::sync::Arc;

/// The application's functions of one generalized request.
pub trait Functions: Send + Sync {
    /// query_fn: the request's status, and the function's error if it failed.
    fn query(&self) -> (Status, Result<()>);
    /// free_fn: the request is going.
    fn free(&self) -> Result<()>;
    /// cancel_fn, told whether the request is complete.
    fn cancel(&self, complete: bool) -> Result<()>;
}

/// A generalized request's state (the binding keeps it behind its request handle).
#[derive(Clone)]
pub struct Grequest {
    fns: Arc<dyn Functions>,
    /// MPI_Grequest_complete was called.
    complete: bool,
    /// MPI_Request_free was called before completion: free_fn runs, and the request goes,
    /// at MPI_Grequest_complete.
    freed: bool,
}

/// What MPI_Request_free does to a generalized request.
pub enum Freed {
    /// Not complete yet: it goes at MPI_Grequest_complete.
    Later,
    /// Complete: it goes now (call `free`).
    Now,
}

impl Grequest {
    pub fn new(fns: Arc<dyn Functions>) -> Self {
        Grequest {
            fns,
            complete: false,
            freed: false,
        }
    }

    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// MPI_Grequest_complete: Ok(true) when it was freed already (the caller drops it and
    /// calls `free`); an error when completed twice.
    pub fn mark_complete(&mut self) -> Result<bool> {
        if self.complete {
            return crate::mpi_err!(Request, "generalized request completed twice");
        }
        self.complete = true;
        Ok(self.freed)
    }

    /// MPI_Request_free.
    pub fn mark_freed(&mut self) -> Freed {
        match self.complete {
            true => Freed::Now,
            false => {
                self.freed = true;
                Freed::Later
            }
        }
    }

    /// The end of a complete request (wait, test): query_fn for its status, then free_fn.
    /// The error is query_fn's, or free_fn's if query_fn succeeded.
    pub fn finish(&self) -> (Status, Result<()>) {
        let (st, q) = self.fns.query();
        let f = self.fns.free();
        (st, q.and(f))
    }

    /// MPI_Request_get_status: the status of a complete request, which stays.
    pub fn peek(&self) -> Option<(Status, Result<()>)> {
        self.complete.then(|| self.fns.query())
    }

    /// free_fn (a freed request's, at its completion or at once).
    pub fn free(&self) -> Result<()> {
        self.fns.free()
    }

    /// MPI_Cancel.
    pub fn cancel(&self) -> Result<()> {
        self.fns.cancel(self.complete)
    }
}
