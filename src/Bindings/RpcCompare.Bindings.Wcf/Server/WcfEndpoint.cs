namespace RpcCompare.Bindings.Wcf.Server;

/// <summary>One CoreWCF endpoint of a binding: where it lives under the binding's address, and which implementation answers.</summary>
/// <param name="Name">The endpoint's name under the binding's address (a URI segment for NetTcp and HTTP, a socket file for UDS).</param>
/// <param name="Contract">The [ServiceContract] interface it serves.</param>
/// <param name="Implementation">The service type answering it.</param>
/// <param name="IsPush">A duplex push endpoint: its sessions live as long as their subscribers (no idle timeout).</param>
/// <param name="IsStreamed">The contract has an operation that takes or returns a Stream: the endpoint uses streamed transfer.</param>
internal sealed record WcfEndpoint(string Name, Type Contract, Type Implementation, bool IsPush = false, bool IsStreamed = false);
