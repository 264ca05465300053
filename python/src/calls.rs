//! `tool_input.parse_calls` and `tool_input.StreamAssembler`: the tool calls of a response
//! body or of a stream, from any API, as `tool-input calls` prints them.

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use tool_input::calls::{parse_body, parse_value, CallOptions, Calls, Format, TextFormat};
use tool_input::stream::StreamAssembler;
use tool_input::Limits;

use crate::convert::{record, text_or_bytes, to_value_within, type_name};
use crate::shared::{Held, Shared};
use crate::stack::{drop_with_stack, with_stack};
use crate::validator::DETACH_BYTES;

/// The options of `format=` and `tools=`: a format name (`"auto"`, `"openai"`,
/// `"responses"`, `"anthropic"`, `"gemini"`, `"ollama"`, `"text"`), and the names of the
/// tools the model was given (an iterable of `str`, or one `str` of names separated by
/// commas, as the CLI's `--tools`).
///
/// `text_format` names the text format calls are written in (a vLLM tool parser's name,
/// `"hermes"`, `"openai"`, `"minimax_m2"`, …): only that one is read. `format="text:NAME"`
/// says the same, as the CLI's `--format text:NAME`.
///
/// `limits` bound what one call's arguments may cost, as `Validator`'s `limits=` does: a call
/// whose arguments pass `max_bytes` or `max_depth` is an error of that kind, never a call
/// (`max_depth` at most 10000; past the default, the arguments are read on a thread with a
/// stack made for it).
fn options(
    format: &str,
    tools: Option<&Bound<'_, PyAny>>,
    text_format: Option<&str>,
    limits: Option<&Bound<'_, PyDict>>,
) -> PyResult<(CallOptions, Limits)> {
    let (format, named) = match format.split_once(':') {
        Some(("text", name)) => ("text", Some(name)),
        _ => (format, None),
    };
    let format: Format = format.parse().map_err(|error| PyValueError::new_err(format!("{error}")))?;
    let limits = crate::limits::limits(limits)?;
    let mut options = CallOptions::new().format(format).limits(limits);
    if let Some(name) = text_format.or(named) {
        let text_format: TextFormat = name.parse().map_err(PyValueError::new_err)?;
        options = options.text_format(text_format);
    }
    if let Some(tools) = tools.filter(|tools| !tools.is_none()) {
        let names: Vec<String> = if let Ok(list) = tools.cast::<PyString>() {
            list.to_cow()?
                .split(',')
                .map(str::trim)
                .filter(|name| !name.is_empty())
                .map(str::to_owned)
                .collect()
        } else {
            tools
                .try_iter()
                .map_err(|_| PyTypeError::new_err(format!("tools must be names, not {}", type_name(tools))))?
                .map(|name| name.and_then(|name| name.extract::<String>()))
                .collect::<PyResult<_>>()?
        };
        options = options.tools(names);
    }
    Ok((options, limits))
}

/// The tool calls of one response body: `{"calls": [{"id", "name", "arguments"}],
/// "errors": [{"kind", "message"}], "content", "reasoning"}`, as `tool-input calls` prints
/// them: the text left beside the calls, and the reasoning apart (a call written in the
/// reasoning is never read). `text_format` reads only that text format (a vLLM tool
/// parser's name); by default it is detected from its markers.
///
/// `body` is the response as `str` or `bytes`, or already parsed; `format` is its API
/// (`"auto"` detects it; `"openai"`, `"responses"`, `"anthropic"`, `"gemini"`, `"ollama"`,
/// or `"text"` for calls written into assistant text); `tools` the names of the tools the
/// model was given (a call to another is an `unknown_tool` error, and text that merely
/// looks like one stays text). Ids are kept byte for byte, or generated when missing. A
/// call whose arguments were cut off, do not parse or are not an object is an error, never
/// a call; a body that cannot be read at all is one error of kind `body`. A response that
/// says the model called a tool but holds no call adds `"missing_call": {"kind", "reason",
/// "message"}`: send its message back to the model as a user turn. `limits` is a dict as
/// `Validator` takes (`max_bytes`, `max_depth` up to 10000, …): a call's arguments past them
/// are an error of that kind (`too_large`, `too_deep`).
#[pyfunction]
#[pyo3(signature = (body, *, format = "auto", tools = None, text_format = None, limits = None))]
pub(crate) fn parse_calls<'py>(
    py: Python<'py>,
    body: &Bound<'py, PyAny>,
    format: &str,
    tools: Option<&Bound<'py, PyAny>>,
    text_format: Option<&str>,
    limits: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (options, limits) = options(format, tools, text_format, limits)?;
    // Past the default depth, on a stack made for the limit, as the arguments are read and
    // converted.
    let body = body.as_unbound();
    let calls = with_stack(py, &limits, |py| {
        let result = match text_or_bytes(body.bind(py))? {
            Some(text) if text.len() >= DETACH_BYTES => py.detach(|| parse_body(&text, &options)),
            Some(text) => parse_body(&text, &options),
            None => parse_value(&to_value_within(body.bind(py), &limits)?, &options),
        };
        match result {
            Ok(calls) => calls_record(py, &calls).map(Bound::unbind),
            // A body that cannot be read at all is one error, in the same shape, as the CLI
            // says.
            Err(error) => {
                let result = PyDict::new(py);
                result.set_item("calls", PyList::empty(py))?;
                result.set_item("errors", PyList::new(py, [record(py, &error)?])?)?;
                Ok(result.into_any().unbind())
            }
        }
    })?;
    Ok(calls.into_bound(py))
}

/// The tool calls of one streamed response, assembled event by event.
///
/// Feed it the stream as it arrives: raw bytes of the SSE body (`push_sse_bytes`, split
/// anywhere), decoded events (`push_event`), or text chunks (`push_text`); then `finish()`
/// for `{"calls", "errors", "content", "reasoning"}`, the same calls the whole body would give. A call the stream
/// did not finish (a length stop, a dropped connection) is a `truncated` error, never a
/// call. `open_calls()` shows what has arrived of each call still streaming, for display.
/// `tools`, `format`, `text_format` and `limits` are as for `parse_calls`. Thread-safe:
/// threads may share one, their calls on it taking turns.
#[pyclass(module = "tool_input", name = "StreamAssembler", frozen)]
pub(crate) struct PyStreamAssembler {
    /// `None` once finished. Each method holds it for the whole call: past the default depth
    /// the call releases the GIL while it runs on a stack made for the limit, and another
    /// thread's call then waits its turn (`crate::shared`), where a `&mut self` method raised
    /// pyo3's "Already borrowed".
    assembler: Shared<Option<StreamAssembler>>,
    /// The limits it reads each call under: past the default depth, each call that feeds it or
    /// reads what it holds runs on a stack made for the limit (`crate::stack`).
    limits: Limits,
}

/// The error of a call on an assembler already finished.
fn finished() -> PyErr {
    PyRuntimeError::new_err("the stream was already finished")
}

impl PyStreamAssembler {
    /// The assembler's state, held for this call (`crate::shared`).
    fn lock(&self, py: Python<'_>) -> PyResult<Held<'_, Option<StreamAssembler>>> {
        self.assembler.lock(py)
    }

    /// Feed the open assembler, on a stack for the limits: a fragment may complete a value
    /// as deep as they allow, which the assembler then reads.
    fn feed(
        &self,
        py: Python<'_>,
        work: impl FnOnce(Python<'_>, &mut StreamAssembler) -> PyResult<()> + Send,
    ) -> PyResult<()> {
        let mut held = self.lock(py)?;
        let turn = held.turn();
        let assembler = held.as_mut().ok_or_else(finished)?;
        with_stack(py, &self.limits, |py| {
            let _inside = turn.enter();
            work(py, assembler)
        })
    }

    /// A record of what the open assembler holds, built on a stack for the limits: the
    /// arguments in it are as deep as they allow.
    fn read<'py>(
        &self,
        py: Python<'py>,
        what: impl for<'a> FnOnce(Python<'a>, &StreamAssembler) -> PyResult<Bound<'a, PyAny>> + Send,
    ) -> PyResult<Bound<'py, PyAny>> {
        let held = self.lock(py)?;
        let turn = held.turn();
        let assembler = held.as_ref().ok_or_else(finished)?;
        let read = with_stack(py, &self.limits, |py| {
            let _inside = turn.enter();
            Ok(what(py, assembler)?.unbind())
        })?;
        Ok(read.into_bound(py))
    }
}

#[pymethods]
impl PyStreamAssembler {
    #[new]
    #[pyo3(signature = (*, tools = None, format = "auto", text_format = None, limits = None))]
    fn new(
        tools: Option<&Bound<'_, PyAny>>,
        format: &str,
        text_format: Option<&str>,
        limits: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let (options, limits) = options(format, tools, text_format, limits)?;
        Ok(PyStreamAssembler {
            assembler: Shared::new("StreamAssembler", Some(StreamAssembler::new(options))),
            limits,
        })
    }

    /// Feed bytes of the body as they arrive, split anywhere: SSE framing or one JSON event
    /// per line.
    fn push_sse_bytes(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let data = text_or_bytes(data)?
            .ok_or_else(|| PyTypeError::new_err(format!("expected bytes, not {}", type_name(data))))?;
        self.feed(py, |_, assembler| {
            assembler.push_sse_bytes(&data);
            Ok(())
        })
    }

    /// Feed one line of the body (SSE framing, or one JSON event).
    fn push_sse_line(&self, py: Python<'_>, line: String) -> PyResult<()> {
        self.feed(py, |_, assembler| {
            assembler.push_sse_line(&line);
            Ok(())
        })
    }

    /// Feed one decoded event (a `dict`; a `str` is a chunk of text).
    fn push_event(&self, py: Python<'_>, event: &Bound<'_, PyAny>) -> PyResult<()> {
        let (event, limits) = (event.as_unbound(), self.limits);
        self.feed(py, |py, assembler| {
            assembler.push_event(&to_value_within(event.bind(py), &limits)?);
            Ok(())
        })
    }

    /// Feed a chunk of assistant text, for calls written as text.
    fn push_text(&self, py: Python<'_>, chunk: String) -> PyResult<()> {
        self.feed(py, |_, assembler| {
            assembler.push_text(&chunk);
            Ok(())
        })
    }

    /// The stream's end marker (`data: [DONE]`) arrived.
    fn push_done(&self, py: Python<'_>) -> PyResult<()> {
        self.feed(py, |_, assembler| {
            assembler.push_done();
            Ok(())
        })
    }

    /// The stream stopped early (a dropped connection): every call not final yet becomes a
    /// `truncated` error.
    fn cut_off(&self, py: Python<'_>, reason: String) -> PyResult<()> {
        self.feed(py, |_, assembler| {
            assembler.cut_off(&reason);
            Ok(())
        })
    }

    /// The calls still streaming, for display only: `[{"position", "id", "name",
    /// "arguments_text", "arguments_value", "arguments_partial", "bytes"}]`.
    fn open_calls<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.read(py, |py, assembler| record(py, &assembler.open_calls()))
    }

    /// The calls that are final so far, `[{"id", "name", "arguments"}]`: each can run now.
    fn calls<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.read(py, |py, assembler| record(py, &assembler.calls()))
    }

    /// The call attempts that failed so far, `[{"kind", "message"}]`.
    fn errors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.read(py, |py, assembler| record(py, &assembler.errors()))
    }

    /// The format being read (`"auto"` until an event of a known shape arrived).
    #[getter]
    fn format(&self, py: Python<'_>) -> PyResult<&'static str> {
        Ok(self.lock(py)?.as_ref().ok_or_else(finished)?.format().as_str())
    }

    /// End the stream and read every call: `{"calls", "errors", "content", "reasoning"}`, as `tool-input calls
    /// --stream` prints them. The assembler cannot be fed after.
    fn finish<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        // Taken on the stack it is read on: if no thread can be made for it, it stays open.
        let mut held = self.lock(py)?;
        let turn = held.turn();
        let open = &mut *held;
        let calls = with_stack(py, &self.limits, |py| {
            let _inside = turn.enter();
            match open.take() {
                Some(assembler) => calls_record(py, &assembler.finish()).map(Bound::unbind),
                None => Err(finished()),
            }
        })?;
        Ok(calls.into_bound(py))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(match &*self.lock(py)? {
            Some(assembler) => format!("StreamAssembler(format={:?})", assembler.format().as_str()),
            None => "StreamAssembler(finished)".to_owned(),
        })
    }
}

impl Drop for PyStreamAssembler {
    /// An assembler left unfinished holds what arrived of its calls, as deep as its limits
    /// allow: dropped on a stack for them. No other call can hold it now.
    fn drop(&mut self) {
        if let Some(assembler) = self.assembler.get_mut().take() {
            drop_with_stack(&self.limits, assembler);
        }
    }
}

/// `{"calls", "errors", "content", "reasoning"}`: the calls, and the text left beside them
/// with the reasoning apart, as `tool-input calls` prints them.
fn calls_record<'py>(py: Python<'py>, calls: &Calls) -> PyResult<Bound<'py, PyAny>> {
    let result = record(py, calls)?;
    let dict = result.cast::<PyDict>()?;
    dict.set_item("content", calls.content.as_deref())?;
    dict.set_item("reasoning", calls.reasoning.as_deref())?;
    Ok(result)
}
