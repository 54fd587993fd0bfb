using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Protobuf.Mapping;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Fast.Server;

/// <summary>
/// Every operation of every contract the host registered, built once when the server starts: a
/// client binds operations by (proto service, operation) name and calls them by the index it is
/// given, so the connection loop finds an operation with one array lookup.
/// </summary>
internal sealed class FastDispatcher
{
    private readonly IServedOperation[] _operations;
    private readonly Dictionary<(string Service, string Name), ushort> _ids;

    public FastDispatcher(IServiceProvider services)
    {
        var operations = new List<IServedOperation>();
        foreach (var served in services.GetServices<RpcServiceDescriptor>())
        {
            var implementation = services.GetRequiredService(served.Contract);
            foreach (var operation in ContractMessages.For(served.Contract).Operations)
            {
                operations.Add((IServedOperation)Activator.CreateInstance(
                    typeof(ServedOperation<,,>).MakeGenericType(served.Contract, operation.Request.Type, operation.Reply.Type), operation, implementation)!);
            }
        }

        if (operations.Count > ushort.MaxValue - FirstId)
        {
            throw new InvalidOperationException($"The fast binding serves at most {ushort.MaxValue - FirstId:#,0} operations; the host registered {operations.Count:#,0}.");
        }

        Topics = services.GetService<TopicRegistry>();
        _operations = [.. operations];
        _ids = operations.Select((o, i) => (o.Key, Id: (ushort)(i + FirstId))).ToDictionary(p => p.Key, p => p.Id);
    }

    /// <summary>The host's topics when it serves publish/subscribe (subscriptions live on their connection: <see cref="FastPushSession"/>).</summary>
    public TopicRegistry? Topics { get; }

    /// <summary>Ids below this are the protocol's own (none used yet): operation ids start here.</summary>
    public const ushort FirstId = 16;

    /// <summary>The id of a served operation; 0 when the host does not serve it.</summary>
    public ushort IdOf(string service, string operation) => _ids.GetValueOrDefault((service, operation));

    /// <summary>Whether the host serves any operation of <paramref name="service"/>.</summary>
    public bool Serves(string service) => _ids.Keys.Any(k => k.Service == service);

    public IServedOperation? Operation(ushort id) => id >= FirstId && id - FirstId < _operations.Length ? _operations[id - FirstId] : null;
}
