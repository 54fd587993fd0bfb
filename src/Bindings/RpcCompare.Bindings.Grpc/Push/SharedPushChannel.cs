using Grpc.Net.Client;

namespace RpcCompare.Bindings.Grpc.Push;

/// <summary>
/// The one channel the multiplexed push clients of an address share, counted: the first client
/// opens it, the last one's disposal closes it, so a process with no subscriber holds no connection.
/// </summary>
internal sealed class SharedPushChannel
{
    private readonly Lock _lock = new();
    private readonly Func<GrpcChannel> _create;
    private GrpcChannel? _channel;
    private int _users;

    public SharedPushChannel(Func<GrpcChannel> create)
    {
        _create = create;
    }

    public GrpcChannel Acquire()
    {
        lock (_lock)
        {
            _users++;
            return _channel ??= _create();
        }
    }

    public void Release()
    {
        GrpcChannel? closing = null;
        lock (_lock)
        {
            if (--_users == 0)
            {
                (closing, _channel) = (_channel, null);
            }
        }

        closing?.Dispose();
    }
}
