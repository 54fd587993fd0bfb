namespace RpcCompare.Bindings.Limits;

/// <summary>Why a binding refused or closed a connection on its own initiative.</summary>
public enum ConnectionIncident
{
    /// <summary>Past the binding's connection limit: refused at once.</summary>
    Refused,

    /// <summary>From a user the host does not serve (a Unix socket's peer uid not allowed): refused at once.</summary>
    Unauthorized,

    /// <summary>Sent part of a preamble, headers or frame and stalled past the timeout.</summary>
    Stalled,

    /// <summary>Sent bytes that are not the binding's protocol (garbage, a bad frame, an oversized length).</summary>
    Malformed,

    /// <summary>Sat idle past the idle timeout. Normal for pooled clients; counted, logged only at Debug.</summary>
    Idle,

    /// <summary>Went away mid-exchange (reset, broken pipe). Counted, logged only at Debug.</summary>
    Dropped,
}
