using System.Collections.Concurrent;
using System.Reflection;
using System.ServiceModel;

namespace RpcCompare.Bindings.Wcf.Client;

/// <summary>
/// Wraps a WCF channel so callers see the contract's one error model (<see cref="WcfErrors"/>),
/// and replaces the channel when it has faulted, so one failed call (a dropped connection, a
/// refused request) does not make the proxy unusable. Releasing the proxy closes its channel.
/// </summary>
/// <remarks>
/// WCF has no client-side hook that replaces the exception a call throws, so the mapping sits
/// in front of the channel (itself a DispatchProxy). It costs one reflective call per operation,
/// well under a microsecond beside a WCF call's tens.
/// </remarks>
internal class WcfClientProxy : DispatchProxy, IAsyncDisposable
{
    private static readonly ConcurrentDictionary<Type, Func<Call, Task, Task>> s_typedMappers = new();
    private static readonly MethodInfo s_mapTyped = typeof(WcfClientProxy).GetMethod(nameof(MapTypedAsync), BindingFlags.NonPublic | BindingFlags.Static)!;
    private readonly Lock _replacing = new();
    private Func<ICommunicationObject> _openChannel = null!;
    private ICommunicationObject _channel = null!;
    private int _clientLimit;

    /// <param name="openChannel">Creates and opens a channel of <typeparamref name="T"/>.</param>
    /// <param name="clientLimit">The client's message limit, for error messages.</param>
    public static T Create<T>(Func<T> openChannel, int clientLimit)
        where T : class
    {
        var proxy = Create<T, WcfClientProxy>();
        var self = (WcfClientProxy)(object)proxy;
        self._openChannel = () => (ICommunicationObject)openChannel();
        self._channel = self._openChannel();
        self._clientLimit = clientLimit;
        return proxy;
    }

    public async ValueTask DisposeAsync()
    {
        var channel = _channel;
        if (channel.State != CommunicationState.Opened)
        {
            channel.Abort();
            return;
        }

        try
        {
            await Task.Factory.FromAsync(channel.BeginClose, channel.EndClose, null).ConfigureAwait(false);
        }
        catch (Exception exception) when (exception is CommunicationException or TimeoutException)
        {
            channel.Abort();
        }

        GC.SuppressFinalize(this);
    }

    protected override object? Invoke(MethodInfo? targetMethod, object?[]? args)
    {
        ArgumentNullException.ThrowIfNull(targetMethod);
        var channel = UsableChannel();
        var call = new Call(this, channel);
        object? result;
        using (SendRefusal.Open(out call.Refusal))
        {
            try
            {
                result = targetMethod.Invoke(channel, args);
            }
            catch (TargetInvocationException exception) when (exception.InnerException is { } inner)
            {
                throw call.Map(inner);
            }
        }

        return result switch
        {
            Task task when targetMethod.ReturnType == typeof(Task) => MapAsync(call, task),
            Task task => s_typedMappers.GetOrAdd(targetMethod.ReturnType, CreateTypedMapper)(call, task),
            _ => result,
        };
    }

    private ICommunicationObject UsableChannel()
    {
        var channel = _channel;
        if (channel.State is CommunicationState.Opened or CommunicationState.Opening or CommunicationState.Created)
        {
            return channel;
        }

        lock (_replacing)
        {
            if (ReferenceEquals(channel, _channel))
            {
                channel.Abort();
                _channel = _openChannel();
            }

            return _channel;
        }
    }

    private static Func<Call, Task, Task> CreateTypedMapper(Type taskType) =>
        s_mapTyped.MakeGenericMethod(taskType.GetGenericArguments()[0]).CreateDelegate<Func<Call, Task, Task>>();

    private static async Task MapAsync(Call call, Task task)
    {
        try
        {
            await task.ConfigureAwait(false);
        }
        catch (Exception exception) when (call.Map(exception) is var mapped && !ReferenceEquals(mapped, exception))
        {
            throw mapped;
        }
    }

    private static async Task<T> MapTypedAsync<T>(Call call, Task task)
    {
        try
        {
            return await ((Task<T>)task).ConfigureAwait(false);
        }
        catch (Exception exception) when (call.Map(exception) is var mapped && !ReferenceEquals(mapped, exception))
        {
            throw mapped;
        }
    }

    /// <summary>One call in flight: its channel and the slot its send refusal lands in.</summary>
    private sealed class Call(WcfClientProxy proxy, ICommunicationObject channel)
    {
        public SendRefusal Refusal = null!;

        public Exception Map(Exception exception)
        {
            if (Refusal.Exception is { } refused)
            {
                // The binary session encoder has already added the refused message's strings to the
                // connection's dictionary, which the server never saw: this connection is unusable.
                channel.Abort();
                exception = refused;
            }

            return WcfErrors.FromException(exception, proxy._clientLimit);
        }
    }
}
