using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Bindings.Telemetry;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Fast.Server;

// What each frame a client sends does: a request dispatched, a Bind answered, a Cancel passed on, a request
// stream's chunks handed to the call reading them (its back-pressure watching for the client's hang-up).
internal sealed partial class FastServerConnection
{
    /// <summary>Starts receiving the request stream of call <paramref name="callId"/>: its StreamData frames go to the stream returned.</summary>
    public InboundStream OpenInbound(uint callId)
    {
        var inbound = new InboundStream();
        return _inbound.TryAdd(callId, inbound) ? inbound : throw new FastProtocolException($"call id {callId} sent a second stream while its first was open");
    }

    /// <summary>The call that read <paramref name="inbound"/> is over: what it left unread, and what still comes, is dropped.</summary>
    public void CloseInbound(uint callId, InboundStream inbound)
    {
        _inbound.TryRemove(new KeyValuePair<uint, InboundStream>(callId, inbound));
        inbound.Abandon();
    }

    private void Handle(FrameHeader header, ReadOnlySpan<byte> body)
    {
        switch (header.Kind)
        {
            case FrameKind.Request or FrameKind.Subscribe or FrameKind.Unsubscribe or FrameKind.Publish when TraceContext.MessageLength(header.BodyLength, header.Flags) > _options.MaxMessageSize:
                throw new FrameTooLargeException(header, TraceContext.MessageLength(header.BodyLength, header.Flags), _options.MaxMessageSize);
            case FrameKind.Request when _dispatcher.Operation(header.Operation) is { } operation:
                // A traced caller's context comes first (read before the call counts as started: bytes that are not one close the connection).
                var message = TraceContext.Split(body, header.Flags, RpcServerTelemetry.IsEnabled, out var parent);
                Sender.Started(header.CallId);
                operation.Dispatch(this, header.CallId, message, parent);
                break;
            case FrameKind.Request:
                Sender.Started(header.CallId);
                Sender.Error(header.CallId, new RpcServiceException(RpcErrorCode.NotFound, $"Operation id {header.Operation} is not one this server gave out; bind the contract first."), null);
                break;
            case FrameKind.Subscribe or FrameKind.Unsubscribe or FrameKind.Publish:
                FastPushSession.Handle(_dispatcher.Topics is { } topics ? _push ??= new FastPushSession(topics, Sender, _closing.Token) : null, _dispatcher.Topics, Sender, header, body);
                break;
            case FrameKind.Cancel:
                Sender.Cancel(header.CallId);
                break;
            case FrameKind.Bind:
                Sender.SendProtocol(FrameKind.Bound, header.CallId, Bind(body));
                break;
            case FrameKind.StreamData:
                // A chunk for a call that already ended (it failed before reading everything) is dropped.
                if (_inbound.TryGetValue(header.CallId, out var inbound))
                {
                    inbound.Write(body, _clientHungUp, _closing.Token);
                }

                break;
            case FrameKind.StreamEnd:
                if (_inbound.TryRemove(header.CallId, out var ended))
                {
                    ended.Complete();
                }

                break;
            default:
                throw new FastProtocolException($"a client sent a {header.Kind} frame");
        }
    }

    private BoundBody Bind(ReadOnlySpan<byte> body)
    {
        BindBody bind;
        try
        {
            bind = Body.ReadProtocol<BindBody>(body);
        }
        catch (Exception e)
        {
            throw new FastProtocolException($"a Bind frame that is not a bind message: {e.Message}");
        }

        var bound = new BoundBody();
        foreach (var name in bind.Operations)
        {
            var id = _dispatcher.IdOf(bind.Service, name);
            bound.Ids.Add(id);
            if (id == 0)
            {
                bound.Refusals.Add(_dispatcher.Serves(bind.Service)
                    ? $"this host serves {bind.Service} without an operation {name} (a different build of the contract?)"
                    : $"this host does not serve {bind.Service} on {_listener.Binding}");
            }
        }

        return bound;
    }
}
