using RpcCompare.Bindings.Fast;
using RpcCompare.Samples.Services.Calculator;
using RpcCompare.Samples.Services.Orders;

namespace RpcCompare.Samples.Services;

/// <summary>
/// The contracts the fast binding's generator writes code for at build time: a proxy and a direct call
/// of the service per operation. The host, loading this assembly with --contracts, finds the code here
/// and says so ("Binding fast-uds serves ICalculator (RpcCompare.Samples.Services) through generated code").
/// </summary>
[FastContracts(typeof(ICalculator), typeof(IOrderService))]
internal sealed partial class FastContracts
{
}
