using System.ServiceModel;

namespace RpcCompare.ContractCorpus;

/// <summary>The WCF "Getting Started" calculator: synchronous, several primitive parameters.</summary>
[ServiceContract(Namespace = "http://Microsoft.ServiceModel.Samples")]
public interface ICalculator
{
    [OperationContract]
    double Add(double n1, double n2);

    [OperationContract]
    double Subtract(double n1, double n2);

    [OperationContract]
    double Multiply(double n1, double n2);

    [OperationContract]
    double Divide(double n1, double n2);
}
