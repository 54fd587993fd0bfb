namespace RpcCompare.Bindings.Wcf;

/// <summary>
/// The caller's W3C trace context as SOAP headers, on every WCF binding (NetTcp, UDS, HTTP): the
/// <c>traceparent</c> and, if any, <c>tracestate</c> strings, as HTTP carries them, in
/// <see cref="Namespace"/>. The client sends them for a call made within a span; the server's span
/// for the call continues that trace. Not mustUnderstand: a server that does not know them ignores them.
/// </summary>
internal static class WcfTraceHeaders
{
    public const string Namespace = "https://www.w3.org/TR/trace-context/";

    public const string TraceParent = "traceparent";

    public const string TraceState = "tracestate";

    /// <summary>A traceparent is 55 characters (version 00); a longer one is not read.</summary>
    public const int MaxTraceParentLength = 55;

    /// <summary>W3C: a tracestate of more than 512 characters may be dropped; the server drops it, since it would go on every span.</summary>
    public const int MaxTraceStateLength = 512;
}
