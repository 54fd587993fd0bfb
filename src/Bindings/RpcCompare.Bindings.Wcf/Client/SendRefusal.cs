using System.ServiceModel;

namespace RpcCompare.Bindings.Wcf.Client;

/// <summary>
/// Carries a request's refusal by <see cref="SendLimitBindingElement"/> back to the proxy that
/// made the call. WCF faults the channel when its encoder throws and the caller then sees only
/// "the channel is in the Faulted state"; the proxy opens a slot in the call's execution
/// context, which flows into WCF's send, and reports the refusal it finds there instead.
/// </summary>
internal sealed class SendRefusal
{
    private static readonly AsyncLocal<SendRefusal?> s_current = new();

    public QuotaExceededException? Exception { get; private set; }

    /// <summary>Opens a slot for the calls started until the returned scope is disposed.</summary>
    public static Scope Open(out SendRefusal slot)
    {
        var previous = s_current.Value;
        slot = new SendRefusal();
        s_current.Value = slot;
        return new Scope(previous);
    }

    public static void Record(QuotaExceededException exception)
    {
        if (s_current.Value is { } slot)
        {
            slot.Exception = exception;
        }
    }

    public readonly struct Scope : IDisposable
    {
        private readonly SendRefusal? _previous;

        public Scope(SendRefusal? previous)
        {
            _previous = previous;
        }

        public void Dispose() => s_current.Value = _previous;
    }
}
